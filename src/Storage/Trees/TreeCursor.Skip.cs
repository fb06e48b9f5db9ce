namespace Folio.Storage.Trees;

public sealed partial class TreeCursor
{
    /// <summary>
    /// Moves forward <paramref name="count"/> entries, ending where that many <see cref="MoveNext"/> calls would,
    /// and returns how many of those moves landed on an entry: fewer than <paramref name="count"/> when the tree
    /// ends first, which leaves the cursor invalid. Within a leaf it moves by index, so it costs one step per leaf
    /// passed rather than one per entry, and it reads no keys or values.
    /// </summary>
    /// <param name="count">How many entries to move over; zero or more.</param>
    /// <returns>How many entries it moved over.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public int Skip(int count) => Skip(count, []);

    /// <summary>
    /// Moves forward over up to <paramref name="count"/> entries whose keys start with <paramref name="prefix"/>,
    /// ending where that many <see cref="MoveNext"/> calls, each followed by a check of the prefix that stops at the
    /// first key without it, would: on that key, or invalid past the end. Returns how many entries with the prefix it
    /// moved over. The current entry must start with <paramref name="prefix"/>, so the ones that do are a contiguous
    /// run ahead of it; a jump that lands past the run's end finds it by a binary search within that leaf.
    /// </summary>
    /// <param name="count">How many entries to move over; zero or more.</param>
    /// <param name="prefix">The prefix every entry moved over has; empty for any entry.</param>
    /// <returns>How many entries it moved over.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public int Skip(int count, ReadOnlySpan<byte> prefix) => Skip(count, prefix, []);

    /// <summary>
    /// Like <see cref="Skip(int, ReadOnlySpan{byte})"/>, and also stops at the first key not below
    /// <paramref name="below"/> (compared as bytes): the entries moved over are the run ahead of the current entry whose
    /// keys have the prefix and sort before that bound.
    /// </summary>
    /// <param name="count">How many entries to move over; zero or more.</param>
    /// <param name="prefix">The prefix every entry moved over has; empty for any entry.</param>
    /// <param name="below">The key every entry moved over sorts before; empty for no bound. The current entry's must.</param>
    /// <returns>How many entries it moved over.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public int Skip(int count, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> below)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count == 0 || !IsValid)
            return 0;
        _tree.EnsureUsable();
        var skipped = 0;
        while (true)
        {
            var leaf = _tree.GetPage(_pages[_leafLevel]);
            var index = _indexes[_leafLevel];
            var ahead = Math.Min(count - skipped, TreePage.Count(leaf) - 1 - index);
            if (ahead > 0)
            {
                if (!Within(TreePage.LeafKey(leaf, index + ahead), prefix, below))
                {
                    var end = FirstOutside(leaf, index + 1, index + ahead, prefix, below);
                    _indexes[_leafLevel] = end;
                    return skipped + end - index - 1;
                }
                _indexes[_leafLevel] = index + ahead;
                skipped += ahead;
            }
            if (skipped == count)
                return skipped;
            // On the leaf's last entry: the next move crosses into the next non-empty leaf.
            _indexes[_leafLevel]++;
            if (!SkipEmptyForward() || !Within(Key, prefix, below))
                return skipped;
            skipped++;
        }
    }

    private static bool Within(ReadOnlySpan<byte> key, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> below) =>
        key.StartsWith(prefix) && (below.IsEmpty || key.SequenceCompareTo(below) < 0);

    /// <summary>
    /// The first index in [<paramref name="low"/>, <paramref name="high"/>] whose key lacks the prefix or does not sort
    /// before the bound; <paramref name="high"/>'s key is such a key, and the keys before <paramref name="low"/> are not.
    /// </summary>
    private static int FirstOutside(ReadOnlySpan<byte> leaf, int low, int high, ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> below)
    {
        while (low < high)
        {
            var mid = (low + high) >>> 1;
            if (Within(TreePage.LeafKey(leaf, mid), prefix, below))
                low = mid + 1;
            else
                high = mid;
        }
        return low;
    }
}
