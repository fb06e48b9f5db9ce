namespace Folio.Storage.Transactions;

/// <summary>The seats of the read transactions; grows when every seat is taken and never shrinks.</summary>
internal sealed class ReaderTable(StorageEnvironment environment)
{
    // Few seats to start with, each carrying a pooled transaction: most environments of a server holding many small
    // databases (four per database with three indexes) never see more than a reader or two at once, and a busy one
    // doubles its table the first time every seat is taken.
    private const int InitialSeats = 2;

    private readonly Lock _growLock = new();
    private volatile ReaderSlot[] _slots = CreateSlots(environment, [], InitialSeats);

    public ReaderSlot Take()
    {
        while (true)
        {
            var slots = _slots;
            var start = (int)((uint)Environment.CurrentManagedThreadId % (uint)slots.Length);
            for (var i = 0; i < slots.Length; i++)
            {
                var slot = slots[(start + i) % slots.Length];
                if (slot.TryTake())
                    return slot;
            }
            lock (_growLock)
            {
                if (_slots == slots)
                    _slots = CreateSlots(environment, slots, slots.Length * 2);
            }
        }
    }

    /// <summary>The oldest snapshot any reader holds, or <see cref="ReaderSlot.Idle"/> when none does.</summary>
    public long OldestSnapshot()
    {
        var oldest = ReaderSlot.Idle;
        foreach (var slot in _slots)
        {
            var snapshot = slot.Snapshot;
            if (snapshot < oldest)
                oldest = snapshot;
        }
        return oldest;
    }

    /// <summary>
    /// Adds the read transactions running now to <paramref name="running"/>. A seat counts from the
    /// moment its snapshot is published, which is before the reader's first page lookup.
    /// </summary>
    public void CaptureRunning(List<ActiveTransaction> running)
    {
        foreach (var slot in _slots)
        {
            if (slot.Snapshot != ReaderSlot.Idle)
                running.Add(new ActiveTransaction(slot.Transaction, slot.Transaction.Generation));
        }
    }

    /// <summary>Whether any seat is taken (a reader is open, or is opening and has not yet seen a close).</summary>
    public bool AnyTaken()
    {
        foreach (var slot in _slots)
        {
            if (slot.IsTaken)
                return true;
        }
        return false;
    }

    public int ActiveCount()
    {
        var count = 0;
        foreach (var slot in _slots)
        {
            if (slot.Snapshot != ReaderSlot.Idle)
                count++;
        }
        return count;
    }

    private static ReaderSlot[] CreateSlots(StorageEnvironment environment, ReaderSlot[] existing, int size)
    {
        var slots = new ReaderSlot[size];
        existing.CopyTo(slots, 0);
        for (var i = existing.Length; i < size; i++)
            slots[i] = new ReaderSlot(environment);
        return slots;
    }
}
