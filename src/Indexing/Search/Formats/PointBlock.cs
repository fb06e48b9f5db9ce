using System.Buffers.Binary;
using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

/// <summary>
/// The layout of a block of points (<see cref="PointStore"/>). The tree key is the block's first point, its
/// value and its id as 8 bytes big-endian each, so blocks sort like the points they start with. The tree value
/// holds the other points: how many, as a varint, and when there are any, a byte with the Rice parameter k, a
/// byte with the id width W (the bit length of the largest id), then a little-endian bit stream with per point
/// a bit telling whether its value is above the previous point's, and if so the increase less one as a Rice
/// code (its bits above the lowest k in unary, ones ended by a zero, then those k bits; a quotient of
/// <see cref="EscapeRun"/> or more is written as exactly <see cref="EscapeRun"/> ones, with no zero, and the
/// increase less one in 64 bits), then its id in W bits.
/// </summary>
/// <remarks>
/// Ids in a block of points sorted by value are in no order, so they take their width; values increase by
/// amounts spread about their mean, which a Rice code with k near the log of the mean takes in about two bits
/// more than k. At 1M benchmark records the varints before (the increase, then the id or, for a repeated value,
/// its increase over the previous id) took 4.1 bytes per timestamp and 3.4 per price (docs/benchmarks.md).
/// </remarks>
internal static class PointBlock
{
    /// <summary>The size of a block's key.</summary>
    public const int KeySize = 16;

    /// <summary>A Rice quotient from which the increase is written whole instead.</summary>
    public const int EscapeRun = 32;

    /// <summary>The most bits one point takes: its flag, an escaped increase and an id of 63 bits.</summary>
    public const int MaxPointBits = 1 + EscapeRun + 64 + 63;

    /// <summary>The most bytes one point takes in a block's value.</summary>
    public const int MaxPointBytes = (MaxPointBits + 7) / 8;

    /// <summary>The most bytes of a block's value before its bit stream: the point count and the two parameters.</summary>
    public const int MaxHeaderBytes = 5 + 2;

    /// <summary>The parameters a block of points is coded with: the Rice parameter and the id width.</summary>
    public readonly record struct Coding(int RiceShift, int IdWidth);

    /// <summary>Writes the key of a block starting with <paramref name="point"/>.</summary>
    public static void WriteKey(Span<byte> key, Point point)
    {
        BinaryPrimitives.WriteUInt64BigEndian(key, point.Value);
        BinaryPrimitives.WriteInt64BigEndian(key[8..], point.Id);
    }

    /// <summary>The first point of the block with this key.</summary>
    public static Point ReadKey(ReadOnlySpan<byte> key)
    {
        if (key.Length != KeySize)
            throw new Folio.Storage.CorruptionException($"A point block key has {key.Length} bytes instead of {KeySize}.");
        return new Point(BinaryPrimitives.ReadUInt64BigEndian(key), BinaryPrimitives.ReadInt64BigEndian(key[8..]));
    }

    /// <summary>The coding of a block holding <paramref name="points"/> (sorted, distinct; the first is the key's).</summary>
    public static Coding CodingOf(ReadOnlySpan<Point> points)
    {
        long largestId = 0;
        double increases = 0;
        var rising = 0;
        for (var i = 1; i < points.Length; i++)
        {
            largestId |= points[i].Id;
            var increase = points[i].Value - points[i - 1].Value;
            if (increase != 0)
            {
                increases += increase - 1;
                rising++;
            }
        }
        // For increases spread geometrically about a mean m, the best Rice parameter is near log2(m ln 2).
        var target = rising == 0 ? 0 : increases / rising * 0.6931;
        var shift = target < 1 ? 0 : Math.Min(63, (int)Math.Log2(target));
        return new Coding(shift, 64 - System.Numerics.BitOperations.LeadingZeroCount((ulong)largestId));
    }

    /// <summary>How many bits <paramref name="point"/> takes after <paramref name="previous"/> in a block coded with <paramref name="coding"/>.</summary>
    public static int PointBits(Point previous, Point point, Coding coding)
    {
        var increase = point.Value - previous.Value;
        if (increase == 0)
            return 1 + coding.IdWidth;
        var quotient = (increase - 1) >> coding.RiceShift;
        var valueBits = quotient < EscapeRun ? (int)quotient + 1 + coding.RiceShift : EscapeRun + 64;
        return 1 + valueBits + coding.IdWidth;
    }

    /// <summary>The length of the block value of <paramref name="points"/> coded with their <see cref="CodingOf"/>.</summary>
    public static int EncodedLength(ReadOnlySpan<Point> points) => EncodedLength(points, CodingOf(points));

    /// <summary>The length of the block value of <paramref name="points"/> coded with <paramref name="coding"/>.</summary>
    public static int EncodedLength(ReadOnlySpan<Point> points, Coding coding)
    {
        var countBytes = Varint.Length((ulong)(points.Length - 1));
        if (points.Length == 1)
            return countBytes;
        long bits = 0;
        for (var i = 1; i < points.Length; i++)
            bits += PointBits(points[i - 1], points[i], coding);
        return checked(countBytes + 2 + (int)((bits + 7) / 8));
    }

    /// <summary>
    /// Encodes the block value of <paramref name="points"/> (sorted, distinct; the first is the key's) with
    /// <paramref name="coding"/> (their <see cref="CodingOf"/>, or any whose id width holds their ids) into
    /// <paramref name="value"/>, which holds <see cref="EncodedLength(ReadOnlySpan{Point}, Coding)"/> bytes, and
    /// returns its length.
    /// </summary>
    public static int Encode(ReadOnlySpan<Point> points, Coding coding, Span<byte> value)
    {
        var position = Varint.Write(value, 0, (ulong)(points.Length - 1));
        if (points.Length == 1)
            return position;
        value[position++] = (byte)coding.RiceShift;
        value[position++] = (byte)coding.IdWidth;
        var writer = new BitSpanWriter(value[position..]);
        for (var i = 1; i < points.Length; i++)
        {
            var increase = points[i].Value - points[i - 1].Value;
            if (increase == 0)
            {
                writer.Write(0, 1);
            }
            else
            {
                writer.Write(1, 1);
                var rest = increase - 1;
                var quotient = rest >> coding.RiceShift;
                if (quotient < EscapeRun)
                {
                    writer.WriteOnes((int)quotient);
                    writer.Write(0, 1);
                    writer.Write(rest, coding.RiceShift);
                }
                else
                {
                    writer.WriteOnes(EscapeRun);
                    writer.Write(rest, 64);
                }
            }
            writer.Write((ulong)points[i].Id, coding.IdWidth);
        }
        return position + writer.Finish();
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
        private BitSpanReader _bits;
        private readonly int _riceShift;
        private readonly int _idWidth;
        private bool _started;

        /// <summary>Reads the block with this key and value.</summary>
        public Reader(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
        {
            Current = ReadKey(key);
            var position = 0;
            ulong more;
            try
            {
                more = Varint.Read(value, ref position);
            }
            catch (InvalidDataException)
            {
                throw new Folio.Storage.CorruptionException("A point block's point count is cut short.");
            }
            // Each point takes at least one bit.
            if (more > (ulong)value.Length * 8 || more >= int.MaxValue)
                throw new Folio.Storage.CorruptionException("A point block claims more points than its bytes can hold.");
            if (more == 0)
            {
                if (position != value.Length)
                    throw new Folio.Storage.CorruptionException("A point block has bytes after its last point.");
            }
            else
            {
                if (value.Length < position + 2 || value[position] > 63 || value[position + 1] > 63)
                    throw new Folio.Storage.CorruptionException("A point block's coding is malformed.");
                _riceShift = value[position];
                _idWidth = value[position + 1];
                position += 2;
            }
            _bits = new BitSpanReader(value[position..]);
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
            if (TryDecodeFromWindow())
                return true;
            var value = Current.Value;
            if (_bits.Read(1) != 0)
            {
                var quotient = _bits.ReadOnes(EscapeRun);
                // A writer escapes any quotient whose bits above the low k would not fit 64 bits.
                if (quotient < EscapeRun && quotient > 0 && _riceShift > System.Numerics.BitOperations.LeadingZeroCount((ulong)quotient))
                    throw new Folio.Storage.CorruptionException("A point block's increase does not fit 64 bits.");
                var rest = quotient < EscapeRun ? ((ulong)quotient << _riceShift) | _bits.Read(_riceShift) : _bits.Read(64);
                var next = value + rest + 1;
                if (next <= value)
                    throw new Folio.Storage.CorruptionException("A point block's values do not increase.");
                value = next;
            }
            SetCurrent(value, (long)_bits.Read(_idWidth));
            return true;
        }

        /// <summary>
        /// Decodes the next point from one 56-bit window when it lies within it, as nearly every point does (a
        /// timestamp takes about 28 bits): a read per part of the point took a range's p50 from 90 to 118 µs.
        /// </summary>
        private bool TryDecodeFromWindow()
        {
            var window = _bits.Window();
            var value = Current.Value;
            int used;
            if ((window & 1) == 0)
            {
                used = 1;
            }
            else
            {
                var ones = System.Numerics.BitOperations.TrailingZeroCount(~(window >> 1));
                used = 2 + ones + _riceShift;
                if (ones >= EscapeRun || used + _idWidth > 56)
                    return false;
                // Within the window k is below 54 and the quotient below 32, so the increase fits 64 bits.
                var rest = ((ulong)ones << _riceShift) | ((window >> (2 + ones)) & ((1UL << _riceShift) - 1));
                var next = value + rest + 1;
                if (next <= value)
                    throw new Folio.Storage.CorruptionException("A point block's values do not increase.");
                value = next;
            }
            if (used + _idWidth > 56)
                return false;
            var id = (long)((window >> used) & ((1UL << _idWidth) - 1));
            _bits.Skip(used + _idWidth);
            SetCurrent(value, id);
            return true;
        }

        private void SetCurrent(ulong value, long id)
        {
            if (value == Current.Value && id <= Current.Id)
                throw new Folio.Storage.CorruptionException("A point block's ids of one value do not increase.");
            Current = new Point(value, id);
            if (Remaining == 0 && !_bits.AtEnd)
                throw new Folio.Storage.CorruptionException("A point block has bytes after its last point.");
        }
    }
}
