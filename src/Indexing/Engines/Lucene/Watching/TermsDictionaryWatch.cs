namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// The guard of the term walk running on this thread, for the terms dictionary's reads (<see cref="WatchedIndexInput"/>):
/// Lucene's block-tree intersection of an automaton with the terms only returns the terms that match, so a pattern that
/// matches nothing walks the whole dictionary inside one step of the enumeration, where only the blocks it reads can
/// look at the query's budget.
/// </summary>
/// <remarks>
/// Thread-bound on purpose: a term walk is synchronous from its first read to its last (no await inside), and the
/// dictionary's inputs are shared by every query of a reader, so the walk in progress is found by its thread. Each
/// <see cref="Enter"/> restores what was there at <see cref="Scope.Dispose"/>.
/// </remarks>
internal static class TermsDictionaryWatch
{
    [ThreadStatic]
    private static QueryGuard? t_guard;

    /// <summary>The guard of the walk on this thread; null outside a watched walk.</summary>
    public static QueryGuard? Current => t_guard;

    /// <summary>Watches the dictionary reads of this thread with <paramref name="guard"/> until the scope is disposed.</summary>
    public static Scope Enter(QueryGuard guard)
    {
        var previous = t_guard;
        t_guard = guard;
        return new Scope(previous);
    }

    /// <summary>Puts back the guard that was watching before <see cref="Enter"/>.</summary>
    public readonly struct Scope : IDisposable
    {
        private readonly QueryGuard? _previous;

        internal Scope(QueryGuard? previous)
        {
            _previous = previous;
        }

        /// <inheritdoc/>
        public void Dispose() => t_guard = _previous;
    }
}
