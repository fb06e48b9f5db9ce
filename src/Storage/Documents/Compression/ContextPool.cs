namespace Folio.Storage.Documents.Compression;

/// <summary>
/// A few reusable instances of something costly to create and not thread-safe (a Zstd context with its
/// dictionary loaded): rent takes one or makes one, return keeps it when a slot is free. Lock-free and
/// allocation-free once warm.
/// </summary>
internal sealed class ContextPool<T>(Func<T> create) : IDisposable
    where T : class, IDisposable
{
    private readonly T?[] _slots = new T?[Math.Max(4, System.Environment.ProcessorCount * 2)];
    private volatile bool _disposed;

    public T Rent()
    {
        for (var i = 0; i < _slots.Length; i++)
        {
            if (Volatile.Read(ref _slots[i]) is not null && Interlocked.Exchange(ref _slots[i], null) is { } item)
                return item;
        }
        return create();
    }

    public void Return(T item)
    {
        // A reader that finishes after the pool was emptied frees its context instead of leaving it in a slot no one empties again.
        if (_disposed)
        {
            item.Dispose();
            return;
        }
        for (var i = 0; i < _slots.Length; i++)
        {
            if (Interlocked.CompareExchange(ref _slots[i], item, null) is null)
            {
                // Emptied meanwhile: take it back out unless the emptying already did.
                if (_disposed)
                    Interlocked.Exchange(ref _slots[i], null)?.Dispose();
                return;
            }
        }
        item.Dispose();
    }

    public void Dispose()
    {
        _disposed = true;
        for (var i = 0; i < _slots.Length; i++)
            Interlocked.Exchange(ref _slots[i], null)?.Dispose();
    }
}
