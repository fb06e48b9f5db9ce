using System.Text;

namespace Folio.Indexing.Querying.Highlighting;

/// <summary>
/// Cuts a text into fragments of about a given length at token boundaries (as Lucene's simple fragmenter does), scores
/// each by the distinct matched terms it holds, then by how many matches, and returns the best, best first (an earlier
/// fragment first among equals), each with its matched tokens between the tags. Fragments without a match are not returned.
/// </summary>
internal static class FragmentHighlighter
{
    /// <summary>
    /// Adds the fragments of <paramref name="text"/> that hold a match to <paramref name="into"/> (<see cref="KeepBest"/>
    /// then picks among those of all of a document's values); <paramref name="preTags"/> and <paramref name="postTags"/> are
    /// used in turn for the distinct matched terms (one pair marks them all).
    /// </summary>
    public static void Highlight(string text, HighlightedTerms terms, int fragmentLength, IReadOnlyList<string> preTags,
        IReadOnlyList<string> postTags, List<(string Text, int Score, int Matches, int Order)> into)
    {
        var tokens = terms.Analyzer.AnalyzeToList(text);
        var distinct = new List<string>();
        var fragmentStart = -1;
        var fragmentEnd = 0;
        var builder = new StringBuilder();
        var written = 0;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var matches = 0;
        foreach (var token in tokens)
        {
            if (fragmentStart >= 0 && token.EndOffset - fragmentStart > fragmentLength)
            {
                Close(text, fragmentEnd, ref written, builder, seen.Count, matches, into);
                fragmentStart = -1;
            }
            if (fragmentStart < 0)
            {
                fragmentStart = token.StartOffset;
                written = token.StartOffset;
                builder.Clear();
                seen.Clear();
                matches = 0;
            }
            fragmentEnd = token.EndOffset;
            if (!terms.Matches(token.Term))
                continue;
            var ordinal = distinct.IndexOf(token.Term);
            if (ordinal < 0)
            {
                ordinal = distinct.Count;
                distinct.Add(token.Term);
            }
            seen.Add(token.Term);
            matches++;
            builder.Append(text, written, token.StartOffset - written)
                .Append(preTags[ordinal % preTags.Count])
                .Append(text, token.StartOffset, token.EndOffset - token.StartOffset)
                .Append(postTags[ordinal % postTags.Count]);
            written = token.EndOffset;
        }
        if (fragmentStart >= 0)
            Close(text, fragmentEnd, ref written, builder, seen.Count, matches, into);
    }

    /// <summary>Keeps the best <paramref name="count"/> fragments, best first.</summary>
    public static void KeepBest(List<(string Text, int Score, int Matches, int Order)> fragments, int count)
    {
        fragments.Sort(static (a, b) => a.Score != b.Score ? b.Score.CompareTo(a.Score) : a.Matches != b.Matches ? b.Matches.CompareTo(a.Matches) : a.Order.CompareTo(b.Order));
        if (fragments.Count > count)
            fragments.RemoveRange(count, fragments.Count - count);
    }

    private static void Close(string text, int end, ref int written, StringBuilder builder, int score, int matches, List<(string Text, int Score, int Matches, int Order)> into)
    {
        if (matches == 0)
            return;
        builder.Append(text, written, end - written);
        written = end;
        into.Add((builder.ToString(), score, matches, into.Count));
    }
}
