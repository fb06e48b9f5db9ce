using System.Text.Json;

namespace Folio.Server.Operations;

/// <summary>
/// The tracked operations of one database, recorded in <c>operations.json</c> in its directory after every committed
/// batch, so a restart keeps their ids, outcome and progress. An operation still running when the server stopped is
/// found <see cref="OperationStatus.Interrupted"/> on the next start, with the count of documents its recorded
/// batches committed; it is not resumed. The last <see cref="KeptEnded"/> ended operations are kept.
/// </summary>
public sealed class OperationRegistry
{
    /// <summary>How many ended operations stay listed.</summary>
    public const int KeptEnded = 100;

    private const string FileName = "operations.json";

    private readonly string _path;
    private readonly Lock _gate = new();
    private readonly SortedDictionary<long, DatabaseOperation> _operations = [];
    private long _lastId;

    internal OperationRegistry(string directory)
    {
        _path = Path.Combine(directory, FileName);
        Load();
    }

    /// <summary>
    /// Raised when an operation starts or ends, on the thread that started or ended it (handlers must not block):
    /// the changes feeds tell watchers about it.
    /// </summary>
    public event Action<OperationState>? Changed;

    /// <summary>A new id, above every recorded one: for tracked operations and for the clients' <c>next-operation-id</c>.</summary>
    public long NextId() => Interlocked.Increment(ref _lastId);

    /// <summary>The operation with <paramref name="id"/>, or null.</summary>
    public DatabaseOperation? Get(long id)
    {
        lock (_gate)
            return _operations.GetValueOrDefault(id);
    }

    /// <summary>True while an operation is in progress (the database then stays loaded).</summary>
    internal bool AnyRunning()
    {
        lock (_gate)
        {
            foreach (KeyValuePair<long, DatabaseOperation> entry in _operations)
            {
                if (entry.Value.IsRunning)
                    return true;
            }
        }

        return false;
    }

    /// <summary>Records a new running operation.</summary>
    internal DatabaseOperation Register(OperationKind kind, string query)
    {
        var operation = new DatabaseOperation(NextId(), kind, query, DateTime.UtcNow, changed: state => Changed?.Invoke(state));
        lock (_gate)
        {
            _operations[operation.Id] = operation;
            Prune();
            Save();
        }
        Changed?.Invoke(operation.Snapshot());
        return operation;
    }

    /// <summary>Writes every operation's progress to the file (replaced whole, flushed to disk).</summary>
    internal void Save()
    {
        lock (_gate)
        {
            var temporary = _path + ".tmp";
            using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                using (var writer = new Utf8JsonWriter(stream))
                {
                    writer.WriteStartObject();
                    writer.WriteNumber("LastId"u8, Interlocked.Read(ref _lastId));
                    writer.WriteStartArray("Operations"u8);
                    foreach (var operation in _operations.Values)
                        OperationJson.Write(writer, operation.Snapshot());
                    writer.WriteEndArray();
                    writer.WriteEndObject();
                }
                stream.Flush(flushToDisk: true);
            }
            File.Move(temporary, _path, overwrite: true);
        }
    }

    private void Prune()
    {
        var ended = 0;
        List<long>? drop = null;
        foreach (var (id, operation) in _operations.Reverse())
        {
            if (operation.Snapshot().Status != OperationStatus.InProgress && ++ended > KeptEnded)
                (drop ??= []).Add(id);
        }
        if (drop is not null)
        {
            foreach (var id in drop)
                _operations.Remove(id);
        }
    }

    private void Load()
    {
        if (!File.Exists(_path))
            return;
        JsonDocument file;
        try
        {
            file = JsonDocument.Parse(File.ReadAllBytes(_path));
        }
        catch (JsonException)
        {
            // A damaged record must not keep the database closed: it is kept aside for inspection and the list starts over.
            File.Move(_path, _path + ".damaged", overwrite: true);
            return;
        }
        using var owned = file;
        var root = file.RootElement;
        _lastId = root.GetProperty("LastId").GetInt64();
        var interrupted = false;
        foreach (var item in root.GetProperty("Operations").EnumerateArray())
        {
            var state = OperationJson.Read(item);
            var status = state.Status;
            var error = state.Error;
            var completedAt = state.CompletedAt;
            if (status == OperationStatus.InProgress)
            {
                status = OperationStatus.Interrupted;
                error = $"The server stopped while the operation ran. The {state.Processed} documents of its committed batches stay changed; the others were not processed, and the operation is not resumed (run the query again to finish, once you have checked a rerun is safe for your patch).";
                completedAt = DateTime.UtcNow;
                interrupted = true;
            }
            var operation = new DatabaseOperation(state.Id, state.Kind, state.Query, state.StartedAt, status);
            operation.Restore(state.Processed, state.Total, error, completedAt);
            _operations[state.Id] = operation;
        }
        if (interrupted)
            Save();
    }
}
