namespace Folio.Indexing.Querying.Suggestions;

/// <summary>
/// The similarity of two strings between 0 (nothing alike) and 1 (equal) by one of the measures a suggestion may ask
/// for (<see cref="SuggestionDistance"/>), as the seeds' system's spell checker scores them: Levenshtein is one minus
/// the edits over the longer length; Jaro-Winkler adds its prefix bonus only to a Jaro similarity of 0.7 or more, with
/// a scale of at most 0.1 and at most one over the longer length; the n-gram measure is Kondrak's over bigrams with the
/// strings padded in front. Rows and match marks live in buffers grown once and reused, nothing is allocated per term.
/// </summary>
public sealed class StringSimilarity
{
    private const float WinklerThreshold = 0.7f;
    private const int GramSize = 2;
    private const char Padding = '\n';

    private int[] _previous = new int[16];
    private int[] _current = new int[16];
    private float[] _previousCost = new float[16];
    private float[] _currentCost = new float[16];
    private bool[] _matchedA = new bool[16];
    private bool[] _matchedB = new bool[16];
    private char[] _padded = new char[16];

    /// <summary>The similarity of <paramref name="a"/> and <paramref name="b"/> by <paramref name="distance"/>.</summary>
    public float Measure(SuggestionDistance distance, ReadOnlySpan<char> a, ReadOnlySpan<char> b) => distance switch
    {
        SuggestionDistance.JaroWinkler => JaroWinkler(a, b),
        SuggestionDistance.NGram => NGram(a, b),
        _ => Levenshtein(a, b),
    };

    /// <summary>One minus the edits (insertions, deletions, substitutions) from one to the other over the longer length.</summary>
    public float Levenshtein(ReadOnlySpan<char> a, ReadOnlySpan<char> b)
    {
        if (a.IsEmpty || b.IsEmpty)
            return a.Length == b.Length ? 1f : 0f;
        Grow(ref _previous, b.Length + 1);
        Grow(ref _current, b.Length + 1);
        var previous = _previous;
        var current = _current;
        for (var j = 0; j <= b.Length; j++)
            previous[j] = j;
        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                var substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), substitution);
            }
            (previous, current) = (current, previous);
        }
        return 1f - (float)previous[b.Length] / Math.Max(a.Length, b.Length);
    }

    /// <summary>Jaro's similarity (characters in common within half the longer length of their place, and their order), with Winkler's bonus for a shared start.</summary>
    public float JaroWinkler(ReadOnlySpan<char> a, ReadOnlySpan<char> b)
    {
        var longer = a.Length >= b.Length ? a : b;
        var shorter = a.Length >= b.Length ? b : a;
        if (shorter.IsEmpty)
            return longer.IsEmpty ? 1f : 0f;
        Grow(ref _matchedA, longer.Length);
        Grow(ref _matchedB, shorter.Length);
        var inLonger = _matchedA.AsSpan(0, longer.Length);
        var inShorter = _matchedB.AsSpan(0, shorter.Length);
        inLonger.Clear();
        inShorter.Clear();
        var window = Math.Max(longer.Length / 2 - 1, 0);
        var matches = 0;
        for (var i = 0; i < shorter.Length; i++)
        {
            var from = Math.Max(i - window, 0);
            var to = Math.Min(i + window + 1, longer.Length);
            for (var j = from; j < to; j++)
            {
                if (inLonger[j] || shorter[i] != longer[j])
                    continue;
                inLonger[j] = true;
                inShorter[i] = true;
                matches++;
                break;
            }
        }
        if (matches == 0)
            return 0f;
        // Transpositions: matched characters of the two, read in order, that differ; half of them count.
        var outOfOrder = 0;
        var k = 0;
        for (var i = 0; i < shorter.Length; i++)
        {
            if (!inShorter[i])
                continue;
            while (!inLonger[k])
                k++;
            if (shorter[i] != longer[k])
                outOfOrder++;
            k++;
        }
        var transpositions = outOfOrder / 2;
        var prefix = 0;
        while (prefix < shorter.Length && shorter[prefix] == longer[prefix])
            prefix++;
        float m = matches;
        var jaro = (m / a.Length + m / b.Length + (m - transpositions) / m) / 3f;
        if (jaro < WinklerThreshold)
            return jaro;
        return jaro + Math.Min(0.1f, 1f / longer.Length) * prefix * (1f - jaro);
    }

    /// <summary>
    /// Kondrak's bigram distance: an edit distance over the strings' overlapping two-character windows (padded in front,
    /// so the first character has one too), a substitution costing the share of the two windows' characters that differ,
    /// normalized by the longer length.
    /// </summary>
    public float NGram(ReadOnlySpan<char> a, ReadOnlySpan<char> b)
    {
        if (a.IsEmpty || b.IsEmpty)
            return a.Length == b.Length ? 1f : 0f;
        // Strings shorter than a gram: the share of equal characters in place.
        if (a.Length < GramSize || b.Length < GramSize)
        {
            var same = 0;
            for (var i = 0; i < Math.Min(a.Length, b.Length); i++)
            {
                if (a[i] == b[i])
                    same++;
            }
            return (float)same / Math.Max(a.Length, b.Length);
        }
        Grow(ref _padded, a.Length + GramSize - 1);
        var padded = _padded.AsSpan(0, a.Length + GramSize - 1);
        padded[..(GramSize - 1)].Fill(Padding);
        a.CopyTo(padded[(GramSize - 1)..]);
        Grow(ref _previousCost, a.Length + 1);
        Grow(ref _currentCost, a.Length + 1);
        var previous = _previousCost;
        var current = _currentCost;
        for (var i = 0; i <= a.Length; i++)
            previous[i] = i;
        Span<char> gram = stackalloc char[GramSize];
        for (var j = 1; j <= b.Length; j++)
        {
            // b's window ending at its j-th character, padded in front like a's.
            for (var g = 0; g < GramSize; g++)
            {
                var at = j - GramSize + g;
                gram[g] = at < 0 ? Padding : b[at];
            }
            current[0] = j;
            for (var i = 1; i <= a.Length; i++)
            {
                var differing = 0;
                for (var g = 0; g < GramSize; g++)
                {
                    if (padded[i - 1 + g] != gram[g])
                        differing++;
                }
                var substitution = previous[i - 1] + (float)differing / GramSize;
                current[i] = Math.Min(Math.Min(current[i - 1] + 1, previous[i] + 1), substitution);
            }
            (previous, current) = (current, previous);
        }
        return 1f - previous[a.Length] / Math.Max(a.Length, b.Length);
    }

    private static void Grow<T>(ref T[] buffer, int length)
    {
        if (buffer.Length < length)
            buffer = new T[Math.Max(length, buffer.Length * 2)];
    }
}
