using System.Buffers.Binary;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// The numbers of Min and Max aggregations, ordered per group in one tree keyed
/// (aggregation, group, number, entry): a group's smallest is the first key under its prefix and its largest
/// the last, so retracting the current minimum finds the next one in O(log N), without reading the group.
/// </summary>
internal sealed partial class ReduceUpdate
{
    // Aggregation (1), group id (8), ordered number (8), entry id (8).
    private const int ExtremeKeySize = 25;

    private void AddExtremes(long entryId, long groupId, MapNumber[][] numbers)
    {
        Span<byte> key = stackalloc byte[ExtremeKeySize];
        Span<byte> value = stackalloc byte[9];
        for (var a = 0; a < numbers.Length; a++)
        {
            if (!KeepsExtremes(a))
                continue;
            foreach (var number in numbers[a])
            {
                WriteExtremeKey(key, a, groupId, number.Double, entryId);
                value[0] = number.IsInteger ? (byte)1 : (byte)0;
                if (number.IsInteger)
                    BinaryPrimitives.WriteInt64LittleEndian(value[1..], number.Integer);
                else
                    BinaryPrimitives.WriteDoubleLittleEndian(value[1..], number.Double);
                // One entry may hold a number twice (an array): the key is the same, and so is the extreme.
                _extremes.Put(key, value);
            }
        }
    }

    private void RemoveExtremes(long entryId, long groupId, MapNumber[][] numbers)
    {
        Span<byte> key = stackalloc byte[ExtremeKeySize];
        for (var a = 0; a < numbers.Length; a++)
        {
            if (!KeepsExtremes(a))
                continue;
            foreach (var number in numbers[a])
            {
                WriteExtremeKey(key, a, groupId, number.Double, entryId);
                _extremes.Delete(key);
            }
        }
    }

    /// <summary>The smallest (or largest) number aggregation <paramref name="aggregation"/> holds for the group, if any.</summary>
    private bool TryReadExtreme(int aggregation, long groupId, bool largest, out MapNumber number)
    {
        number = default;
        Span<byte> prefix = stackalloc byte[9];
        prefix[0] = (byte)aggregation;
        BinaryPrimitives.WriteInt64BigEndian(prefix[1..], groupId);
        var cursor = _extremes.CreateCursor();
        bool found;
        if (largest)
        {
            Span<byte> last = stackalloc byte[ExtremeKeySize];
            prefix.CopyTo(last);
            last[9..].Fill(0xFF);
            found = cursor.SeekLastAtOrBefore(last);
        }
        else
        {
            found = cursor.Seek(prefix);
        }
        if (!found || !cursor.Key.StartsWith(prefix))
            return false;
        var value = cursor.Value;
        number = value[0] == 1
            ? MapNumber.FromInteger(BinaryPrimitives.ReadInt64LittleEndian(value[1..]))
            : MapNumber.FromDouble(BinaryPrimitives.ReadDoubleLittleEndian(value[1..]));
        return true;
    }

    private bool KeepsExtremes(int aggregation) => _reduce.Aggregations[aggregation].Op is AggregationOp.Min or AggregationOp.Max;

    private static void WriteExtremeKey(Span<byte> key, int aggregation, long groupId, double number, long entryId)
    {
        key[0] = (byte)aggregation;
        BinaryPrimitives.WriteInt64BigEndian(key[1..], groupId);
        // Doubles ordered as unsigned bytes: flip the sign bit of positives, every bit of negatives.
        var bits = BitConverter.DoubleToInt64Bits(number == 0 ? 0.0 : number);
        var ordered = bits < 0 ? ~bits : bits ^ long.MinValue;
        BinaryPrimitives.WriteInt64BigEndian(key[9..], ordered);
        BinaryPrimitives.WriteInt64BigEndian(key[17..], entryId);
    }
}
