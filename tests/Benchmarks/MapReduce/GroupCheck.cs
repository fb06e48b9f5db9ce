using System.Globalization;

namespace Folio.Benchmarks.MapReduce;

/// <summary>Compares one store's group rows with the oracle's: the same groups, equal counts and integer sums, the other sums within 1e-9 relative.</summary>
public static class GroupCheck
{
    /// <summary>How close a floating sum must come to the oracle's, relative to the larger of the two.</summary>
    public const double Tolerance = 1e-9;

    /// <summary>Checks every group of <paramref name="expected"/>; returns a one-line summary, and adds a line per mismatch to <paramref name="failures"/> (up to 10).</summary>
    public static string Compare(string what, IReadOnlyDictionary<string, GroupTotals> actual, IReadOnlyDictionary<string, GroupTotals> expected, List<string> failures)
    {
        int wrong = 0;
        double worst = 0;
        foreach ((string group, GroupTotals want) in expected)
        {
            if (!actual.TryGetValue(group, out GroupTotals got))
            {
                Fail(failures, ref wrong, $"{what}: group {group} is missing (expected {want})");
                continue;
            }

            double relative = Relative(got.Amount, want.Amount);
            worst = Math.Max(worst, relative);
            if (got.Count != want.Count || got.Quantity != want.Quantity || relative > Tolerance)
                Fail(failures, ref wrong, $"{what}: group {group} is {got}, expected {want}");
        }

        if (actual.Count != expected.Count)
            Fail(failures, ref wrong, $"{what}: {actual.Count:N0} groups, expected {expected.Count:N0}");
        return string.Create(CultureInfo.InvariantCulture,
            $"{what}: {expected.Count:N0} groups checked, {wrong} wrong, largest relative difference of the floating sums {worst:0.0e+0}");
    }

    /// <summary>|a - b| / max(|a|, |b|), 0 when both are 0.</summary>
    public static double Relative(double a, double b)
    {
        double scale = Math.Max(Math.Abs(a), Math.Abs(b));
        return scale == 0 ? 0 : Math.Abs(a - b) / scale;
    }

    private static void Fail(List<string> failures, ref int wrong, string message)
    {
        wrong++;
        if (failures.Count < 10)
            failures.Add(message);
    }
}
