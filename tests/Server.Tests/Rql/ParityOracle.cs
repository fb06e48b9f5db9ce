namespace Folio.Server.Tests.Rql;

/// <summary>
/// The oracle's own text, distance and ordering rules, written from the seeds' documentation rather than from Folio's
/// code: words lower-cased and split at anything not a letter, tf-idf as Lucene's MoreLikeThis documents it, great-circle
/// distances on a sphere of the mean Earth radius, alphanumeric order comparing runs of digits as numbers.
/// </summary>
public static class ParityOracle
{
    public const double EarthRadiusKm = 6371.0088;

    public static bool Eq(string? a, string? b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);

    /// <summary>The words of a text, lower-cased, in order.</summary>
    public static List<string> Words(string text)
    {
        var words = new List<string>();
        var start = -1;
        for (var i = 0; i <= text.Length; i++)
        {
            var letter = i < text.Length && char.IsLetterOrDigit(text[i]);
            if (letter && start < 0)
                start = i;
            else if (!letter && start >= 0)
            {
                words.Add(text[start..i].ToLowerInvariant());
                start = -1;
            }
        }
        return words;
    }

    /// <summary>Whether two words of a text lie within <paramref name="slop"/> moves of standing side by side in that order.</summary>
    public static bool Near(string text, string first, string second, int slop)
    {
        var words = Words(text);
        for (var i = 0; i < words.Count; i++)
        {
            if (words[i] != first)
                continue;
            for (var j = 0; j < words.Count; j++)
            {
                if (words[j] != second || i == j)
                    continue;
                // In order, the gap between them; reversed, the moves to swap them past each other.
                var moves = j > i ? j - i - 1 : i - j + 1;
                if (moves <= slop)
                    return true;
            }
        }
        return false;
    }

    /// <summary>The great-circle distance in kilometres.</summary>
    public static double DistanceKm(double lat1, double lng1, double lat2, double lng2)
    {
        static double Radians(double degrees) => degrees * Math.PI / 180;
        var dLat = Radians(lat2 - lat1);
        var dLng = Radians(lng2 - lng1);
        var a = Math.Pow(Math.Sin(dLat / 2), 2) + Math.Cos(Radians(lat1)) * Math.Cos(Radians(lat2)) * Math.Pow(Math.Sin(dLng / 2), 2);
        return 2 * EarthRadiusKm * Math.Asin(Math.Sqrt(a));
    }

    /// <summary>Alphanumeric order: case-insensitive, runs of digits compared by their numbers.</summary>
    public static int Alphanumeric(string a, string b)
    {
        int i = 0, j = 0;
        while (i < a.Length && j < b.Length)
        {
            if (char.IsDigit(a[i]) && char.IsDigit(b[j]))
            {
                var si = i;
                var sj = j;
                while (i < a.Length && char.IsDigit(a[i]))
                    i++;
                while (j < b.Length && char.IsDigit(b[j]))
                    j++;
                var byNumber = decimal.Parse(a[si..i]).CompareTo(decimal.Parse(b[sj..j]));
                if (byNumber != 0)
                    return byNumber;
                continue;
            }
            var byChar = char.ToLowerInvariant(a[i]).CompareTo(char.ToLowerInvariant(b[j]));
            if (byChar != 0)
                return byChar;
            i++;
            j++;
        }
        return (a.Length - i).CompareTo(b.Length - j);
    }

    /// <summary>The optimal-string-alignment distance (edits, a swap of neighbours being one), case-insensitive.</summary>
    public static int Edits(string a, string b)
    {
        a = a.ToLowerInvariant();
        b = b.ToLowerInvariant();
        var d = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++)
            d[i, 0] = i;
        for (var j = 0; j <= b.Length; j++)
            d[0, j] = j;
        for (var i = 1; i <= a.Length; i++)
        {
            for (var j = 1; j <= b.Length; j++)
            {
                var cost = a[i - 1] == b[j - 1] ? 0 : 1;
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + cost);
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i, j] = Math.Min(d[i, j], d[i - 2, j - 2] + 1);
            }
        }
        return d[a.Length, b.Length];
    }

    /// <summary>
    /// More like this as the seeds document it: the source's words with their counts, kept when counted at least
    /// <paramref name="minTf"/> times and found in at least <paramref name="minDf"/> of <paramref name="texts"/>, the
    /// <paramref name="maxTerms"/> best by tf × (1 + ln(N / (df + 1))); the answer is every other text with one of them.
    /// </summary>
    public static List<string> MoreLikeThis(IReadOnlyList<(string Id, string Text)> texts, string? sourceId, string sourceText, int minTf, int minDf, int maxTerms)
    {
        var wordsOf = texts.ToDictionary(t => t.Id, t => Words(t.Text).ToHashSet());
        var picked = Words(sourceText).GroupBy(w => w)
            .Select(g => (Word: g.Key, Tf: g.Count(), Df: wordsOf.Values.Count(words => words.Contains(g.Key))))
            .Where(t => t.Tf >= minTf && t.Df >= minDf && t.Df > 0)
            .Select(t => (t.Word, Score: t.Tf * (1 + Math.Log(texts.Count / (double)(t.Df + 1)))))
            .OrderByDescending(t => t.Score).ThenBy(t => t.Word, StringComparer.Ordinal)
            .Take(maxTerms).Select(t => t.Word).ToHashSet();
        return [.. texts.Where(t => !Eq(t.Id, sourceId) && wordsOf[t.Id].Overlaps(picked)).Select(t => t.Id)];
    }
}
