namespace Folio.Indexing.Querying;

/// <summary>
/// Natural order: text compares character by character (by code unit), except that where both have a run of digits the
/// runs compare as whole numbers, so <c>a2</c> comes before <c>a10</c> and <c>file9.txt</c> before <c>file10.txt</c>.
/// Equal numbers written with more leading zeros come after (<c>a2</c>, <c>a02</c>), so the order stays total.
/// </summary>
public sealed class AlphaNumericComparer : IComparer<string>
{
    /// <summary>The comparer.</summary>
    public static AlphaNumericComparer Instance { get; } = new();

    private AlphaNumericComparer()
    {
    }

    /// <inheritdoc/>
    public int Compare(string? x, string? y)
    {
        if (x is null || y is null)
            return x is null ? (y is null ? 0 : -1) : 1;
        int i = 0, j = 0;
        var zeros = 0;
        while (i < x.Length && j < y.Length)
        {
            if (char.IsAsciiDigit(x[i]) && char.IsAsciiDigit(y[j]))
            {
                var (xStart, yStart) = (i, j);
                while (i < x.Length && x[i] == '0')
                    i++;
                while (j < y.Length && y[j] == '0')
                    j++;
                var (xDigits, yDigits) = (i, j);
                while (i < x.Length && char.IsAsciiDigit(x[i]))
                    i++;
                while (j < y.Length && char.IsAsciiDigit(y[j]))
                    j++;
                // Without leading zeros, a longer run is a larger number; runs of one length compare digit by digit.
                var byLength = (i - xDigits).CompareTo(j - yDigits);
                if (byLength != 0)
                    return byLength;
                var byDigits = x.AsSpan(xDigits, i - xDigits).SequenceCompareTo(y.AsSpan(yDigits, j - yDigits));
                if (byDigits != 0)
                    return byDigits;
                if (zeros == 0)
                    zeros = (xDigits - xStart).CompareTo(yDigits - yStart);
                continue;
            }
            if (x[i] != y[j])
                return x[i].CompareTo(y[j]);
            i++;
            j++;
        }
        var byRest = (x.Length - i).CompareTo(y.Length - j);
        return byRest != 0 ? byRest : zeros;
    }
}
