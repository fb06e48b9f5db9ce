namespace Folio.Indexing.Collectors;

/// <summary>
/// The sum, smallest, largest and count of some numbers, folded one at a time without allocating. The sum is
/// compensated (Neumaier), so a facet's sum over a million prices does not drift with the order of the matches.
/// </summary>
public struct NumberStats
{
    private double _sum;
    private double _compensation;

    /// <summary>How many numbers were added.</summary>
    public long Count { get; private set; }

    /// <summary>The smallest number added (meaningless while <see cref="Count"/> is 0).</summary>
    public double Min { get; private set; }

    /// <summary>The largest number added (meaningless while <see cref="Count"/> is 0).</summary>
    public double Max { get; private set; }

    /// <summary>The sum of the numbers added (0 when none were).</summary>
    public readonly double Sum => _sum + _compensation;

    /// <summary>Adds one number.</summary>
    public void Add(double value)
    {
        if (Count == 0 || value < Min)
            Min = value;
        if (Count == 0 || value > Max)
            Max = value;
        Count++;
        AddToSum(value);
    }

    /// <summary>Adds every number <paramref name="other"/> holds.</summary>
    public void Add(in NumberStats other)
    {
        if (other.Count == 0)
            return;
        if (Count == 0 || other.Min < Min)
            Min = other.Min;
        if (Count == 0 || other.Max > Max)
            Max = other.Max;
        Count += other.Count;
        AddToSum(other._sum);
        AddToSum(other._compensation);
    }

    private void AddToSum(double value)
    {
        var total = _sum + value;
        _compensation += Math.Abs(_sum) >= Math.Abs(value) ? _sum - total + value : value - total + _sum;
        _sum = total;
    }
}
