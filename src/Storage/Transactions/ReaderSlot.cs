namespace Folio.Storage.Transactions;

/// <summary>
/// A reusable seat for one read transaction: it publishes the snapshot the reader holds (so the
/// flusher knows which page versions must stay) and carries the pooled transaction object, which
/// is why opening a read transaction allocates nothing.
/// </summary>
internal sealed class ReaderSlot(StorageEnvironment environment)
{
    public const long Idle = long.MaxValue;

    private int _busy;
    private long _snapshot = Idle;

    public PageTransaction Transaction { get; } = new(environment, write: false);

    public long Snapshot => Volatile.Read(ref _snapshot);

    public bool TryTake() => Volatile.Read(ref _busy) == 0 && Interlocked.CompareExchange(ref _busy, 1, 0) == 0;

    /// <summary>Publishes the snapshot with a full fence, so the flusher's later scan cannot miss it.</summary>
    public void Publish(long snapshot) => Interlocked.Exchange(ref _snapshot, snapshot);

    public bool IsTaken => Volatile.Read(ref _busy) != 0;

    /// <summary>
    /// Frees the seat with a full fence, then lets the environment close its files if it was waiting for
    /// the last reader (see <see cref="StorageEnvironment.Dispose"/>).
    /// </summary>
    public void Release()
    {
        Volatile.Write(ref _snapshot, Idle);
        Interlocked.Exchange(ref _busy, 0);
        environment.ReaderLeft();
    }
}
