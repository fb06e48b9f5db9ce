namespace Folio.Server.Changes;

/// <summary>The sending half: reads what the watch commands ask for and sends it.</summary>
internal sealed partial class ChangesWebSocket
{
    /// <summary>
    /// How long a socket waits for a write before it looks anyway: a commit wakes it at once, so this only bounds
    /// the delay should a wake-up ever be missed (logged as a warning when one is), at the cost of one timer tick.
    /// </summary>
    private static readonly TimeSpan WakeBackstop = TimeSpan.FromSeconds(5);

    private async Task SendChangesAsync(CancellationToken stop)
    {
        long position = _database.Store.LastEtag;
        var changes = new List<ChangeRecord>(Chunk);
        var indexChanges = new List<IndexChange>();
        while (!stop.IsCancellationRequested)
        {
            Task commanded = Volatile.Read(ref _commanded).Task;
            // The newest etag before the filter: a write confirmed after a watch command is after both, so never skipped.
            long newest = _database.Store.LastEtag;
            ChangeFilter filter = Volatile.Read(ref _filter);
            var more = false;
            if (filter.IsEmpty)
            {
                position = newest;
            }
            else
            {
                // The seeds' clients know no FellBehind message (an unknown type fails their feed): they just skip ahead.
                if (newest - position > _options.MaxWebSocketLag && _seeds)
                {
                    position = newest;
                }
                else if (newest - position > _options.MaxWebSocketLag)
                {
                    await SendAsync(static (w, s) => WriteFellBehind(w, s.From, s.To), (From: position, To: newest), stop);
                    ChangesLog.FellBehind(_logger, _database.Name, position, newest);
                    position = newest;
                }

                changes.Clear();
                (long UpToEtag, bool More)? read = ChangeReader.Read(_database, position, filter, Chunk, includeDocuments: false, changes);
                if (read is null)
                    return;
                foreach (ChangeRecord change in changes)
                {
                    if (_seeds)
                        await SendAsync(static (w, s) => WriteSeedsDocumentChange(w, s.Change, s.Socket._database.DatabaseIdBytes), (Change: change, Socket: this), stop);
                    else
                        await SendAsync(static (w, s) => ChangeJson.Write(w, s.Change, s.Socket._database.DatabaseIdBytes, "DocumentChange"), (Change: change, Socket: this), stop);
                }
                position = read.Value.UpToEtag;
                more = read.Value.More;
            }

            bool watchingIndexes;
            indexChanges.Clear();
            lock (_indexes)
            {
                watchingIndexes = _watchIndexes;
                if (watchingIndexes && !_indexes.Look(_database, indexChanges))
                    return;
            }

            foreach (IndexChange change in indexChanges)
                await SendAsync(static (w, s) => WriteIndexChange(w, s.Change, s.Seeds), (Change: change, Seeds: _seeds), stop);

            while (_operationChanges.TryDequeue(out var operation))
                await SendAsync(static (w, o) => WriteOperationChange(w, o), operation, stop);

            if (!more)
                await WaitAsync(position, commanded, watchingIndexes ? _options.IndexPollInterval : WakeBackstop, stop);
        }
    }

    /// <summary>Waits for a write after <paramref name="position"/>, a command, or <paramref name="poll"/> to pass.</summary>
    private async Task WaitAsync(long position, Task commanded, TimeSpan poll, CancellationToken stop)
    {
        using var waiting = CancellationTokenSource.CreateLinkedTokenSource(stop);
        if (poll != Timeout.InfiniteTimeSpan)
            waiting.CancelAfter(poll);
        Task written = _database.Store.WaitForChangeAsync(position, waiting.Token);
        await Task.WhenAny(written, commanded);
        await waiting.CancelAsync();
        stop.ThrowIfCancellationRequested();
        if (poll == WakeBackstop && !written.IsCompletedSuccessfully && !commanded.IsCompleted && _database.Store.LastEtag > position)
            ChangesLog.MissedWakeup(_logger, _database.Name, position, _database.Store.LastEtag);
    }
}
