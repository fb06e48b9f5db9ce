using System.Buffers;
using System.Text;

namespace Folio.Indexing.Queries;

/// <summary>
/// Measures how many edits terms are from one fuzzy term, as Lucene's <c>FuzzyQuery</c> does: the restricted
/// Damerau-Levenshtein distance (insertions, deletions, substitutions and transpositions of two adjacent characters)
/// over code points, at most <see cref="MaxEdits"/>, and a term accepted only while its similarity
/// <c>1 - edits / min(length of the two)</c> stays above 0. Terms come in sorted order during a dictionary walk, so the
/// distance rows of the prefix a term shares with the term before it are kept rather than computed again, and a row
/// already past the limit rejects every later term sharing that prefix without any work. Nothing is allocated per
/// term: the candidate's code points and the rows live in buffers sized once for the longest term that can match.
/// </summary>
internal sealed class FuzzyTermMatcher
{
    private readonly int[] _query;
    private readonly int[] _candidate;
    // Row i holds the distances from the candidate's first i code points to each prefix of the query.
    private readonly int[] _rows;
    private readonly int _width;
    // Rows 0..._validRows are those of the last candidate's prefix; rows of a longer shared prefix are not.
    private int _validRows;
    // The first row whose smallest distance passed the limit (int.MaxValue: none among the valid rows).
    private int _deadRow = int.MaxValue;

    /// <summary>A matcher for <paramref name="term"/> (text, as analysis made it) within <paramref name="maxEdits"/> edits.</summary>
    public FuzzyTermMatcher(string term, int maxEdits)
    {
        var points = new List<int>(term.Length);
        foreach (var rune in term.EnumerateRunes())
            points.Add(rune.Value);
        _query = [.. points];
        MaxEdits = maxEdits;
        _width = _query.Length + 1;
        _candidate = new int[_query.Length + maxEdits];
        _rows = new int[(_query.Length + maxEdits + 1) * _width];
        for (var j = 0; j < _width; j++)
            _rows[j] = j;
    }

    /// <summary>The most edits a matching term may be away.</summary>
    public int MaxEdits { get; }

    /// <summary>The fuzzy term's length in code points.</summary>
    public int Length => _query.Length;

    /// <summary>
    /// Whether <paramref name="utf8"/> (a term's UTF-8 bytes) matches; if so, how many edits away and its similarity
    /// (1 for the term itself), which ranks the expansions of the term.
    /// </summary>
    public bool TryMatch(ReadOnlySpan<byte> utf8, out int edits, out float similarity)
    {
        edits = -1;
        similarity = 0;
        var length = 0;
        var common = 0;
        var sharing = true;
        var limit = _candidate.Length;
        while (!utf8.IsEmpty)
        {
            if (Rune.DecodeFromUtf8(utf8, out var rune, out var consumed) != OperationStatus.Done || length == limit)
                return Forget(common);
            if (sharing && length < _validRows && _candidate[length] == rune.Value)
                common++;
            else
                sharing = false;
            _candidate[length++] = rune.Value;
            utf8 = utf8[consumed..];
        }
        return Measure(length, common, out edits, out similarity);
    }

    /// <summary><see cref="TryMatch(ReadOnlySpan{byte}, out int, out float)"/> for a term as text (a token of a document being highlighted).</summary>
    public bool TryMatch(ReadOnlySpan<char> text, out int edits, out float similarity)
    {
        edits = -1;
        similarity = 0;
        var length = 0;
        var common = 0;
        var sharing = true;
        foreach (var rune in text.EnumerateRunes())
        {
            if (length == _candidate.Length)
                return Forget(common);
            if (sharing && length < _validRows && _candidate[length] == rune.Value)
                common++;
            else
                sharing = false;
            _candidate[length++] = rune.Value;
        }
        return Measure(length, common, out edits, out similarity);
    }

    private bool Measure(int length, int common, out int edits, out float similarity)
    {
        edits = -1;
        similarity = 0;
        if (Math.Abs(length - _query.Length) > MaxEdits)
            return Forget(common);
        var start = Math.Min(common, _validRows);
        if (_deadRow <= start)
        {
            _validRows = start;
            return false;
        }
        _deadRow = int.MaxValue;
        for (var i = start + 1; i <= length; i++)
        {
            var row = i * _width;
            var above = row - _width;
            var c = _candidate[i - 1];
            _rows[row] = i;
            var smallest = i;
            for (var j = 1; j < _width; j++)
            {
                var cost = _query[j - 1] == c ? 0 : 1;
                var d = Math.Min(Math.Min(_rows[above + j] + 1, _rows[row + j - 1] + 1), _rows[above + j - 1] + cost);
                if (i > 1 && j > 1 && c == _query[j - 2] && _candidate[i - 2] == _query[j - 1])
                    d = Math.Min(d, _rows[above - _width + j - 2] + 1);
                _rows[row + j] = d;
                smallest = Math.Min(smallest, d);
            }
            if (smallest > MaxEdits)
            {
                _deadRow = i;
                _validRows = i;
                return false;
            }
        }
        _validRows = length;
        var distance = _rows[length * _width + _query.Length];
        if (distance > MaxEdits)
            return false;
        if (distance > 0)
        {
            // Lucene's rule: a term as short as its edits (or shorter) is too unlike to match.
            var shorter = Math.Min(length, _query.Length);
            if (distance >= shorter)
                return false;
            similarity = 1f - ((float)distance / shorter);
        }
        else
        {
            similarity = 1f;
        }
        edits = distance;
        return true;
    }

    /// <summary>Rejects a candidate that was not measured: only the rows of the prefix it shares stay valid.</summary>
    private bool Forget(int common)
    {
        _validRows = Math.Min(common, _validRows);
        if (_deadRow > _validRows)
            _deadRow = int.MaxValue;
        return false;
    }
}
