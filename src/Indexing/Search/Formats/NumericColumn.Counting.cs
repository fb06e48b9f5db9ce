using System.Buffers.Binary;

namespace Folio.Indexing.Search;

// Counting straight from the stored blocks: a facet over a query's matches wants how many have each term id, or how
// many have a number in each range, not the values themselves. Reading each value out first (a term id into an array
// with a presence flag beside it, a price divided back into a double and turned into its key) cost more than the
// counting did.
internal sealed partial class NumericColumn
{
    /// <summary>
    /// Adds one to <paramref name="counts"/>[id] for each of <paramref name="entryIds"/> (increasing) whose term id
    /// is id, and one to <paramref name="missing"/> for each without one; grows <paramref name="counts"/> as ids need,
    /// up to <paramref name="maxIds"/> long. Stops before the first block it cannot count so (its ids may reach
    /// <paramref name="maxIds"/>, or it keeps raw values) and returns how many of the entries it counted.
    /// </summary>
    public int CountIds(ReadOnlySpan<long> entryIds, ref long[] counts, int maxIds, ref long missing)
    {
        if (_changed.Count != 0)
            return 0;
        var mask = _size - 1;
        var start = 0;
        while (start < entryIds.Length)
        {
            var number = BlockOf(entryIds[start]);
            var end = EndOfBlockRun(entryIds, start, number);
            var block = StoredBlock(number);
            if (block.IsEmpty)
            {
                missing += end - start;
                start = end;
                continue;
            }
            var width = block[0];
            if (width == FullRangeWidth || (width & DecimalFlag) != 0)
                return start;
            var smallest = BinaryPrimitives.ReadUInt64LittleEndian(block[1..]);
            // Codes run from 1 to 2^width - 1 and stand for smallest + code - 1.
            var codes = (1UL << width) - 1;
            if (smallest >= (ulong)maxIds || codes > (ulong)maxIds - smallest)
                return start;
            var needed = (int)(smallest + codes);
            if (counts.Length < needed)
                Array.Resize(ref counts, Math.Min(maxIds, Math.Max(needed, counts.Length * 2)));
            // Offset by one so a code indexes its id's count directly; a code of 0 (no id) is counted apart.
            var byCode = counts.AsSpan((int)smallest);
            for (var i = start; i < end; i++)
            {
                var code = ReadCode(block, (int)(entryIds[i] & mask), width);
                if (code == 0)
                    missing++;
                else
                    byCode[(int)code - 1]++;
            }
            start = end;
        }
        return entryIds.Length;
    }

    /// <summary>
    /// For a column of sort keys: adds one to <paramref name="counts"/>[r] for each of <paramref name="entryIds"/>
    /// (increasing) whose key k has <c>k - lowest[r] &lt;= widths[r]</c> (unsigned: the key lies in the range's
    /// inclusive bounds). An entry without a key counts nowhere. A block of scaled decimals compares its codes with
    /// the ranges' bounds turned into codes once per block, so no entry is divided back into a double. Stops before
    /// the first block it cannot count so and returns how many of the entries it counted.
    /// </summary>
    public int CountInRanges(ReadOnlySpan<long> entryIds, ReadOnlySpan<ulong> lowest, ReadOnlySpan<ulong> widths, Span<long> counts)
    {
        if (_changed.Count != 0 || lowest.Length > MaxCountedRanges)
            return 0;
        Span<ulong> codeLowest = stackalloc ulong[lowest.Length];
        Span<ulong> codeWidths = stackalloc ulong[lowest.Length];
        var mask = _size - 1;
        var start = 0;
        while (start < entryIds.Length)
        {
            var number = BlockOf(entryIds[start]);
            var end = EndOfBlockRun(entryIds, start, number);
            var block = StoredBlock(number);
            if (block.IsEmpty)
            {
                start = end;
                continue;
            }
            var width = block[0];
            if (width == FullRangeWidth)
                return start;
            var bits = (width & DecimalFlag) != 0 ? width & MaxDecimalBits : width;
            var smallest = BinaryPrimitives.ReadUInt64LittleEndian(block[1..]);
            for (var r = 0; r < lowest.Length; r++)
            {
                var (low, high) = (width & DecimalFlag) != 0
                    ? ScaledCodes(lowest[r], lowest[r] + widths[r], (long)smallest, Powers[(width >> 5) & MaxScale], bits)
                    : PlainCodes(lowest[r], lowest[r] + widths[r], smallest, bits);
                // An empty span of codes: every code minus this wraps past a width of zero.
                (codeLowest[r], codeWidths[r]) = low <= high ? (low, high - low) : (ulong.MaxValue, 0);
            }
            for (var i = start; i < end; i++)
            {
                // A code of 0 (no key) lies below every span's lowest, which is at least 1.
                var code = ReadCode(block, (int)(entryIds[i] & mask), bits);
                for (var r = 0; r < codeLowest.Length; r++)
                    counts[r] += code - codeLowest[r] <= codeWidths[r] ? 1 : 0;
            }
            start = end;
        }
        return entryIds.Length;
    }

    // Ranges beyond this many are counted after reading the keys (a facet rarely has more than a dozen).
    private const int MaxCountedRanges = 64;

    /// <summary>The codes (1 to 2^bits - 1) of a block of plain keys that stand for keys from <paramref name="low"/> to <paramref name="high"/>.</summary>
    private static (ulong Low, ulong High) PlainCodes(ulong low, ulong high, ulong smallest, int bits)
    {
        var last = (1UL << bits) - 1;
        if (high < smallest || (low > smallest && low - smallest >= last))
            return (1, 0);
        var lowCode = low <= smallest ? 1 : low - smallest + 1;
        var highCode = high - smallest >= last ? last : high - smallest + 1;
        return (lowCode, highCode);
    }

    /// <summary>
    /// The codes (1 to 2^bits - 1) of a block of scaled decimals whose keys lie from <paramref name="low"/> to
    /// <paramref name="high"/>: a code c stands for the double (smallest + c - 1) / power, which grows with c, so the
    /// codes in range are a span, found from an estimate and corrected against the key each code reads as.
    /// </summary>
    private static (ulong Low, ulong High) ScaledCodes(ulong low, ulong high, long smallest, double power, int bits)
    {
        var last = (1UL << bits) - 1;
        var lowCode = low == ulong.MinValue ? 1 : FirstCodeAtLeast(low, smallest, power, last);
        var highCode = high == ulong.MaxValue ? last : FirstCodeAtLeast(high + 1, smallest, power, last) - 1;
        return (lowCode, highCode);
    }

    /// <summary>The first code from 1 whose key is at least <paramref name="key"/>; one past <paramref name="last"/> when none is.</summary>
    private static ulong FirstCodeAtLeast(ulong key, long smallest, double power, ulong last)
    {
        // The estimate from the double itself; a bound far outside the block (or not finite) lands on an end.
        var target = TermEncoding.DoubleOfKey(key) * power - smallest + 1;
        ulong code = double.IsNaN(target) || target <= 1 ? 1 : target >= last ? last : (ulong)Math.Ceiling(target);
        // Rounding can put the estimate a code or so off; past a few steps, halve the span instead.
        for (var step = 0; step < 4; step++)
        {
            if (code > 1 && CodeKey(code - 1, smallest, power) >= key)
                code--;
            else if (code <= last && CodeKey(code, smallest, power) < key)
                code++;
            else
                return code;
        }
        ulong first = 1, pastLast = last + 1;
        while (first < pastLast)
        {
            var middle = first + ((pastLast - first) / 2);
            if (CodeKey(middle, smallest, power) < key)
                first = middle + 1;
            else
                pastLast = middle;
        }
        return first;
    }

    /// <summary>The key a code of a block of scaled decimals reads as, exactly as a read gives it.</summary>
    private static ulong CodeKey(ulong code, long smallest, double power) => TermEncoding.DoubleKey((smallest + (long)code - 1) / power);
}
