using System.Text;
using Folio.Indexing.Engines;

namespace Folio.Indexing.Querying.Suggestions;

/// <summary>
/// The suggestions for one word in one walk of a field's terms (<see cref="IEngineSearcher.WalkTerms"/>). A term is a
/// candidate when it shares a character n-gram with the word (1- and 2-grams for words under five characters, 2- and
/// 3-grams for five, 3- and 4-grams for longer ones, as the seeds' spell checker looks candidates up) and is at least
/// <see cref="SuggestionOptions.Accuracy"/> similar to the word as written (as the seeds' system measures it: a letter in
/// another case is an edit); the walk keeps those, and the word's own frequency, and
/// <see cref="Suggestions"/> ranks them. The term's characters are decoded into one reused buffer and its grams looked
/// up by span, so a term that is not kept allocates nothing.
/// </summary>
internal sealed class SuggestionWalker : ITermWalker
{
    private readonly string _word;
    private readonly string _normalized;
    private readonly SuggestionOptions _options;
    private readonly StringSimilarity _similarity;
    private readonly HashSet<string>.AlternateLookup<ReadOnlySpan<char>> _grams;
    private readonly int _smallestGram;
    private readonly List<(string Term, float Score, long Frequency)> _candidates = [];
    private char[] _chars = new char[64];
    private float _lastScore;
    private long _wordFrequency;

    /// <summary>A walker for <paramref name="word"/> as written, which the field's terms are measured against, and as the field normalizes it.</summary>
    public SuggestionWalker(string word, string normalized, SuggestionOptions options, StringSimilarity similarity)
    {
        _word = word;
        _normalized = normalized;
        _options = options;
        _similarity = similarity;
        _smallestGram = word.Length > 5 ? 3 : word.Length == 5 ? 2 : 1;
        var grams = new HashSet<string>(StringComparer.Ordinal);
        for (var size = _smallestGram; size <= _smallestGram + 1; size++)
        {
            for (var i = 0; i + size <= word.Length; i++)
                grams.Add(word.Substring(i, size));
        }
        _grams = grams.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    public bool Wants(ReadOnlySpan<byte> term)
    {
        if (_chars.Length < term.Length)
            _chars = new char[Math.Max(term.Length, _chars.Length * 2)];
        var chars = _chars.AsSpan(0, Encoding.UTF8.GetChars(term, _chars));
        // The word itself is never offered, but its frequency decides which terms may be.
        if (chars.Equals(_normalized, StringComparison.OrdinalIgnoreCase))
        {
            _lastScore = float.NaN;
            return true;
        }
        if (!SharesAGram(chars))
            return false;
        _lastScore = _similarity.Measure(_options.Distance, _word, chars);
        return _lastScore >= _options.Accuracy;
    }

    public void Add(ReadOnlySpan<byte> term, long documentFrequency)
    {
        if (float.IsNaN(_lastScore))
            _wordFrequency += documentFrequency;
        else if (documentFrequency > 0)
            _candidates.Add((Encoding.UTF8.GetString(term), _lastScore, documentFrequency));
    }

    /// <summary>
    /// The terms to offer, at most <see cref="SuggestionOptions.PageSize"/>: without popularity, the word alone when the
    /// field has it; otherwise the candidates (with popularity, only those at least as frequent as the word), the most
    /// similar first, then the most frequent, then in ordinal order.
    /// </summary>
    public List<string> Suggestions()
    {
        if (_options.SortMode == SuggestionSortMode.None && _wordFrequency > 0)
            return [_normalized];
        var least = _options.SortMode == SuggestionSortMode.Popularity ? _wordFrequency : 0;
        _candidates.RemoveAll(c => c.Frequency < least);
        _candidates.Sort(static (a, b) =>
        {
            var byScore = b.Score.CompareTo(a.Score);
            if (byScore != 0)
                return byScore;
            var byFrequency = b.Frequency.CompareTo(a.Frequency);
            return byFrequency != 0 ? byFrequency : string.CompareOrdinal(a.Term, b.Term);
        });
        var count = Math.Min(_candidates.Count, _options.PageSize);
        var suggestions = new List<string>(count);
        for (var i = 0; i < count; i++)
            suggestions.Add(_candidates[i].Term);
        return suggestions;
    }

    private bool SharesAGram(ReadOnlySpan<char> term)
    {
        for (var size = _smallestGram; size <= _smallestGram + 1; size++)
        {
            for (var i = 0; i + size <= term.Length; i++)
            {
                if (_grams.Contains(term.Slice(i, size)))
                    return true;
            }
        }
        return false;
    }
}
