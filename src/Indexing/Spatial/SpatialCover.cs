namespace Folio.Indexing.Spatial;

/// <summary>
/// The Morton cell ranges (<see cref="SpatialTerm.Cell"/>) that hold every point of a shape's bounds: each rectangle is
/// covered by the quadtree cells of one depth, chosen so the rectangle spans <see cref="CellsAcross"/> to twice as many, and
/// cells next to each other on the curve join into one range. Every point of the shape falls in a range (the rectangle
/// is quantized as points are); a range also holds points outside the shape, which the exact test then leaves out.
/// </summary>
public static class SpatialCover
{
    /// <summary>
    /// How many cells a rectangle spans along its longer side, at least (and under twice as many). More cells fit it
    /// closer (fewer points read outside it) and cost a seek each.
    /// </summary>
    public const int CellsAcross = 8;

    /// <summary>The ranges (inclusive, in increasing order, not overlapping) of the cells covering <paramref name="bounds"/>.</summary>
    public static List<(ulong Low, ulong High)> Ranges(IReadOnlyList<GeoBox> bounds)
    {
        var cells = new List<(ulong Low, ulong High)>();
        foreach (var box in bounds)
            AddCells(box, cells);
        cells.Sort(static (a, b) => a.Low.CompareTo(b.Low));
        var ranges = new List<(ulong Low, ulong High)>(cells.Count);
        foreach (var cell in cells)
        {
            if (ranges.Count > 0 && (ranges[^1].High == ulong.MaxValue || cell.Low <= ranges[^1].High + 1))
            {
                if (cell.High > ranges[^1].High)
                    ranges[^1] = (ranges[^1].Low, cell.High);
                continue;
            }
            ranges.Add(cell);
        }
        return ranges;
    }

    private static void AddCells(GeoBox box, List<(ulong Low, ulong High)> cells)
    {
        var x0 = SpatialTerm.QuantizeLng(box.MinLng);
        var x1 = SpatialTerm.QuantizeLng(box.MaxLng);
        var y0 = SpatialTerm.QuantizeLat(box.MinLat);
        var y1 = SpatialTerm.QuantizeLat(box.MaxLat);
        var span = Math.Max((ulong)x1 - x0, (ulong)y1 - y0) + 1;
        // The depth whose cells are no wider than span / CellsAcross (at depth d a cell is 2^(32-d) grid steps wide).
        var shift = 0;
        while (shift < 32 && (1UL << (shift + 1)) * CellsAcross <= span)
            shift++;
        for (var cy = (ulong)y0 >> shift; cy <= (ulong)y1 >> shift; cy++)
        {
            for (var cx = (ulong)x0 >> shift; cx <= (ulong)x1 >> shift; cx++)
            {
                var low = SpatialTerm.Interleave((uint)(cx << shift), (uint)(cy << shift));
                var high = shift == 32 ? ulong.MaxValue : low | ((1UL << (2 * shift)) - 1);
                cells.Add((low, high));
            }
        }
    }
}
