using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The layout of a block of points (<see cref="PointStore"/>). The tree key is the block's first point, its
/// value and its id as 8 bytes big-endian each, so blocks sort like the points they start with. The tree value
/// holds the other points: how many, as a varint, then per point the value's increase over the previous
/// point's as a varint and after it, when that increase is 0, the id's increase over the previous id minus
/// one, else the id itself. Timestamps some thousands apart with ids below a million take about six bytes a
/// point, and a value many entries share one or two bytes per entry after its first.
/// </summary>
internal static class PointBlock
{
    /// <summary>The size of a block's key.</summary>
    public const int KeySize = 16;

    /// <summary>The most bytes one point takes in a block's value (two varints of up to ten bytes).</summary>
    public const int MaxPointBytes = 20;

    /// <summary>The most bytes the point count takes.</summary>
    public const int MaxCountBytes = 5;

    /// <summary>Writes the key of a block starting with <paramref name="point"/>.</summary>
    public static void WriteKey(Span<byte> key, Point point)
    {
        BinaryPrimitives.WriteUInt64BigEndian(key, point.Value);
        BinaryPrimitives.WriteInt64BigEndian(key[8..], point.Id);
    }

    /// <summary>
    /// Puts <paramref name="cursor"/> on the block that holds <paramref name="point"/> or would: the last block
    /// starting at or before it, else the first block. <paramref name="key"/> is scratch for the seek key.
    /// False when there is no block.
    /// </summary>
    public static bool SeekBlockOf(TreeCursor cursor, Point point, Span<byte> key)
    {
        WriteKey(key, point);
        return cursor.SeekLastAtOrBefore(key[..KeySize]) || cursor.First();
    }

    /// <summary>The first point of the block with this key.</summary>
    public static Point ReadKey(ReadOnlySpan<byte> key)
    {
        if (key.Length != KeySize)
            throw new Folio.Storage.CorruptionException($"A point block key has {key.Length} bytes instead of {KeySize}.");
        return new Point(BinaryPrimitives.ReadUInt64BigEndian(key), BinaryPrimitives.ReadInt64BigEndian(key[8..]));
    }

    /// <summary>How many bytes <paramref name="point"/> takes after <paramref name="previous"/>.</summary>
    public static int EncodedLength(Point previous, Point point)
    {
        var increase = point.Value - previous.Value;
        return Varint.Length(increase) + Varint.Length(increase == 0 ? (ulong)(point.Id - previous.Id - 1) : (ulong)point.Id);
    }

    /// <summary>Encodes the block value of <paramref name="points"/> (sorted, distinct; the first is the key's) and returns its length.</summary>
    public static int Encode(ReadOnlySpan<Point> points, Span<byte> value)
    {
        var position = Varint.Write(value, 0, (ulong)(points.Length - 1));
        for (var i = 1; i < points.Length; i++)
        {
            var increase = points[i].Value - points[i - 1].Value;
            position = Varint.Write(value, position, increase);
            position = Varint.Write(value, position, increase == 0 ? (ulong)(points[i].Id - points[i - 1].Id - 1) : (ulong)points[i].Id);
        }
        return position;
    }

    /// <summary>Decodes a block into <paramref name="points"/> (grown when too short) and returns how many points it holds.</summary>
    public static int Decode(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ref Point[] points)
    {
        var reader = new Reader(key, value);
        if (points.Length < reader.Remaining)
            points = new Point[Math.Max(reader.Remaining, points.Length * 2)];
        var count = 0;
        while (reader.MoveNext())
            points[count++] = reader.Current;
        return count;
    }

    /// <summary>Steps through the points of one block in order, decoding in place.</summary>
    public ref struct Reader
    {
        private readonly ReadOnlySpan<byte> _value;
        private int _position;
        private bool _started;

        /// <summary>Reads the block with this key and value.</summary>
        public Reader(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
        {
            _value = value;
            Current = ReadKey(key);
            var position = 0;
            var more = Varint.Read(value, ref position);
            if (more > (ulong)value.Length)
                throw new Folio.Storage.CorruptionException("A point block claims more points than its bytes can hold.");
            if (more == 0 && position != value.Length)
                throw new Folio.Storage.CorruptionException("A point block has bytes after its last point.");
            _position = position;
            Remaining = (int)more + 1;
        }

        /// <summary>The point the reader is on (valid after a <see cref="MoveNext"/> that returned true).</summary>
        public Point Current { get; private set; }

        /// <summary>How many points are still ahead, the current one included before the first move.</summary>
        public int Remaining { get; private set; }

        /// <summary>Moves to the next point; false past the last.</summary>
        public bool MoveNext()
        {
            if (Remaining == 0)
                return false;
            Remaining--;
            if (!_started)
            {
                _started = true;
                return true;
            }
            var increase = Varint.Read(_value, ref _position);
            var id = (long)Varint.Read(_value, ref _position);
            var previous = Current;
            Current = increase == 0 ? new Point(previous.Value, previous.Id + id + 1) : new Point(previous.Value + increase, id);
            if (Remaining == 0 && _position != _value.Length)
                throw new Folio.Storage.CorruptionException("A point block has bytes after its last point.");
            return true;
        }
    }
}
