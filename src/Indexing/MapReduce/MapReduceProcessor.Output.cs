namespace Folio.Indexing.MapReduce;

/// <summary>
/// The output collection: after a batch's reduce store and rows commit, the groups it touched are written as
/// documents. The batch's own transaction marked them pending; the next batch clears the marks of those
/// written since, and a restart writes whatever is still marked from the rows the store holds then.
/// </summary>
internal sealed partial class MapReduceProcessor
{
    private readonly ReduceOutput? _output;
    private readonly Task? _outputFreed;
    private List<string>? _written;

    /// <summary>
    /// Before the first batch, on the runner's thread: a new index first clears its output collection of what
    /// was there before it (once the index that wrote there before has let go); then the documents of groups
    /// a crash kept from being written are written from the store's rows.
    /// </summary>
    public void Recover()
    {
        if (_output is null)
            return;
        if (!_store.ReadOutputReady())
        {
            if (_outputFreed is not null)
            {
                // Whether the earlier removal finished or failed, the purge that follows removes the same documents.
                _outputFreed.ContinueWith(static _ => { }, TaskScheduler.Default).GetAwaiter().GetResult();
            }
            ReduceOutput.PurgeAsync(_output.Store, _output.Collection).GetAwaiter().GetResult();
        }
        var rows = new List<(string Key, byte[] Row)>();
        var removed = new List<string>();
        var written = new List<string>();
        foreach (var (key, row) in _store.ReadPendingOutputs())
        {
            written.Add(key);
            if (row is null)
                removed.Add(key);
            else
                rows.Add((key, row));
        }
        _output.Write(rows, removed);
        _store.MarkOutputWritten(written);
    }

    private void WriteOutput(List<(string Key, byte[] Row)> rows, List<string> removed)
    {
        if (_output is null)
            return;
        _output.Write(rows, removed);
        var written = new List<string>(rows.Count + removed.Count);
        foreach (var (key, _) in rows)
            written.Add(key);
        written.AddRange(removed);
        _written = written;
    }
}
