using System.Buffers.Binary;
using System.Text;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// The running aggregates of one group: its entry count and, per aggregation, how many values are present,
/// how many are numbers, their sum (integers exactly, other numbers as a compensated sum) and how many of
/// them are not integers. Adding and retracting an entry cost the same whatever the group's size; the
/// smallest and largest numbers are not kept here but read from the ordered extremes tree.
/// </summary>
internal sealed class GroupState
{
    // Per aggregation: present, numbers, integer sum (16), sum, compensation, non-integers.
    private const int AggregateSize = 8 + 8 + 16 + 8 + 8 + 8;
    private readonly Aggregate[] _aggregates;

    public GroupState(long groupId, string key, int aggregations)
    {
        GroupId = groupId;
        Key = key;
        _aggregates = new Aggregate[aggregations];
    }

    public long GroupId { get; }

    /// <summary>The group's values as a canonical JSON array (<see cref="MapEntry.GroupKey"/>).</summary>
    public string Key { get; }

    /// <summary>How many map entries the group has; 0 once its last one was retracted.</summary>
    public long Entries { get; private set; }

    public ref readonly Aggregate this[int aggregation] => ref _aggregates[aggregation];

    /// <summary>Adds (<paramref name="sign"/> 1) or retracts (-1) one entry's values.</summary>
    public void Apply(ReadOnlySpan<long> present, MapNumber[][] numbers, int sign)
    {
        Entries += sign;
        for (var a = 0; a < _aggregates.Length; a++)
        {
            ref var aggregate = ref _aggregates[a];
            aggregate.Present += sign * present[a];
            foreach (var number in numbers[a])
            {
                aggregate.Numbers += sign;
                if (number.IsInteger)
                {
                    aggregate.IntegerSum += sign * (Int128)number.Integer;
                    continue;
                }
                aggregate.NonIntegers += sign;
                AddCompensated(ref aggregate, sign * number.Double);
            }
            if (aggregate.NonIntegers == 0)
            {
                // Every non-integer left: what remains of their sum is rounding, not value.
                aggregate.Sum = 0;
                aggregate.Compensation = 0;
            }
        }
    }

    public int SerializedSize => 8 + (_aggregates.Length * AggregateSize) + Encoding.UTF8.GetByteCount(Key);

    public void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, Entries);
        var offset = 8;
        foreach (var aggregate in _aggregates)
        {
            var slot = destination.Slice(offset, AggregateSize);
            BinaryPrimitives.WriteInt64LittleEndian(slot, aggregate.Present);
            BinaryPrimitives.WriteInt64LittleEndian(slot[8..], aggregate.Numbers);
            BinaryPrimitives.WriteInt128LittleEndian(slot[16..], aggregate.IntegerSum);
            BinaryPrimitives.WriteDoubleLittleEndian(slot[32..], aggregate.Sum);
            BinaryPrimitives.WriteDoubleLittleEndian(slot[40..], aggregate.Compensation);
            BinaryPrimitives.WriteInt64LittleEndian(slot[48..], aggregate.NonIntegers);
            offset += AggregateSize;
        }
        Encoding.UTF8.GetBytes(Key, destination[offset..]);
    }

    /// <exception cref="InvalidDataException">The stored state is shorter than its aggregations need.</exception>
    public static GroupState Read(long groupId, ReadOnlySpan<byte> source, int aggregations)
    {
        var keyOffset = 8 + (aggregations * AggregateSize);
        if (source.Length < keyOffset)
            throw new InvalidDataException($"The state of group {groupId} is {source.Length} bytes; {aggregations} aggregations need at least {keyOffset}.");
        var state = new GroupState(groupId, Encoding.UTF8.GetString(source[keyOffset..]), aggregations)
        {
            Entries = BinaryPrimitives.ReadInt64LittleEndian(source),
        };
        for (var a = 0; a < aggregations; a++)
        {
            var slot = source.Slice(8 + (a * AggregateSize), AggregateSize);
            state._aggregates[a] = new Aggregate
            {
                Present = BinaryPrimitives.ReadInt64LittleEndian(slot),
                Numbers = BinaryPrimitives.ReadInt64LittleEndian(slot[8..]),
                IntegerSum = BinaryPrimitives.ReadInt128LittleEndian(slot[16..]),
                Sum = BinaryPrimitives.ReadDoubleLittleEndian(slot[32..]),
                Compensation = BinaryPrimitives.ReadDoubleLittleEndian(slot[40..]),
                NonIntegers = BinaryPrimitives.ReadInt64LittleEndian(slot[48..]),
            };
        }
        return state;
    }

    // Neumaier's variant of Kahan summation: the low-order bits each addition loses are kept apart, so
    // adding and later retracting the same values leaves (almost) exactly what was there.
    private static void AddCompensated(ref Aggregate aggregate, double value)
    {
        var sum = aggregate.Sum + value;
        aggregate.Compensation += Math.Abs(aggregate.Sum) >= Math.Abs(value)
            ? (aggregate.Sum - sum) + value
            : (value - sum) + aggregate.Sum;
        aggregate.Sum = sum;
    }

    /// <summary>One aggregation's running values.</summary>
    internal struct Aggregate
    {
        public long Present;
        public long Numbers;
        public Int128 IntegerSum;
        public double Sum;
        public double Compensation;
        public long NonIntegers;

        /// <summary>The sum of the numbers: exact while they are all integers within a long.</summary>
        public readonly (bool IsInteger, long Integer, double Double) Total()
        {
            if (NonIntegers == 0 && IntegerSum >= long.MinValue && IntegerSum <= long.MaxValue)
                return (true, (long)IntegerSum, (double)IntegerSum);
            return (false, 0, (double)IntegerSum + (Sum + Compensation));
        }
    }
}
