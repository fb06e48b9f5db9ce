namespace Folio.Indexing.MapReduce;

/// <summary>A number a map entry gives an aggregation: integers stay exact, others are doubles.</summary>
/// <param name="Double">The value as a double (what orders it).</param>
/// <param name="Integer">The value, when <paramref name="IsInteger"/>.</param>
/// <param name="IsInteger">Whether the JSON held a whole number that fits a long.</param>
internal readonly record struct MapNumber(double Double, long Integer, bool IsInteger)
{
    public static MapNumber FromInteger(long value) => new(value, value, true);

    public static MapNumber FromDouble(double value) => new(value, 0, false);
}
