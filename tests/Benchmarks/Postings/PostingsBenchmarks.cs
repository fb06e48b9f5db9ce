using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using Folio.Indexing.Postings;

namespace Folio.Benchmarks.Postings;

/// <summary>
/// Encoding, decoding and skipping over posting lists of 1M entry ids. Results and the decisions
/// taken from them are in tests/Benchmarks/Postings/README.md.
/// </summary>
[MemoryDiagnoser]
[Config(typeof(SizeColumns))]
public class PostingsBenchmarks
{
    private const int Count = 1_000_000;

    private long[] _ids = [];
    private long[] _decoded = [];
    private byte[] _buffer = [];
    private byte[] _encoded = [];
    private byte[] _packedOnly = [];
    private byte[] _varintOnly = [];
    private byte[] _other = [];
    private readonly PostingsIterator _left = new();
    private readonly PostingsIterator _right = new();

    /// <summary>Dense: gaps 1-4 (a frequent term). Sparse: gaps 1-1000 (a rarer term).</summary>
    [Params("Dense", "Sparse")]
    public string Gaps { get; set; } = "Dense";

    [GlobalSetup]
    public void Setup()
    {
        _ids = MakeIds(Gaps, Count, seed: 1);
        _decoded = new long[Count];
        _buffer = new byte[PostingsEncoder.GetMaxEncodedLength(Count, withFrequencies: false)];
        _encoded = PostingsEncoder.EncodeToArray(_ids);
        _packedOnly = PostingsEncoder.EncodeToArray(_ids, default, BlockEncodingPolicy.PackedOnly);
        _varintOnly = PostingsEncoder.EncodeToArray(_ids, default, BlockEncodingPolicy.VarintOnly);

        // The other side of the intersection: a ten times rarer term over the same id range.
        var maxGap = Gaps == "Dense" ? 40 : 10_000;
        _other = PostingsEncoder.EncodeToArray(MakeIds(maxGap, Count / 10, seed: 2));
    }

    [Benchmark]
    public int Encode() => PostingsEncoder.Encode(_ids, default, _buffer);

    [Benchmark]
    public int DecodeBulk() => PostingsDecoder.Decode(_encoded, _decoded, default);

    [Benchmark]
    public long DecodeIterate() => Drain(_encoded);

    /// <summary>The same walk over a list forced to bit-packed blocks (no varint blocks).</summary>
    [Benchmark]
    public long DecodeForcedPacked() => Drain(_packedOnly);

    /// <summary>The same walk over a list forced to varint blocks.</summary>
    [Benchmark]
    public long DecodeForcedVarint() => Drain(_varintOnly);

    /// <summary>Leap-frog AND of the 1M list with a 100K list, both skipping with Advance.</summary>
    [Benchmark]
    public int Intersect()
    {
        _left.Reset(_encoded);
        _right.Reset(_other);
        var matches = 0;
        var more = _right.MoveNext() && _left.Advance(_right.Current);
        while (more)
        {
            if (_left.Current == _right.Current)
            {
                matches++;
                more = _right.MoveNext() && _left.Advance(_right.Current);
            }
            else
            {
                more = _right.Advance(_left.Current) && _left.Advance(_right.Current);
            }
        }

        return matches;
    }

    private long Drain(byte[] encoded)
    {
        _left.Reset(encoded);
        long sum = 0;
        while (_left.MoveNext())
        {
            sum += _left.Current;
        }

        return sum;
    }

    private static long[] MakeIds(string gaps, int count, int seed) => MakeIds(gaps == "Dense" ? 4 : 1000, count, seed);

    private static long[] MakeIds(int maxGap, int count, int seed)
    {
        var random = new Random(seed);
        var ids = new long[count];
        var id = -1L;
        for (var i = 0; i < count; i++)
        {
            id += random.Next(1, maxGap + 1);
            ids[i] = id;
        }

        return ids;
    }

    /// <summary>Adds the encoded size per id of each encoding to the summary table.</summary>
    private sealed class SizeColumns : ManualConfig
    {
        public SizeColumns()
        {
            AddColumn(
                new BytesPerIdColumn("Bytes/id", BlockEncodingPolicy.Auto),
                new BytesPerIdColumn("Bytes/id packed-only", BlockEncodingPolicy.PackedOnly),
                new BytesPerIdColumn("Bytes/id varint-only", BlockEncodingPolicy.VarintOnly));
        }
    }

    private sealed class BytesPerIdColumn(string name, BlockEncodingPolicy policy) : IColumn
    {
        public string Id => name;

        public string ColumnName => name;

        public bool AlwaysShow => true;

        public ColumnCategory Category => ColumnCategory.Custom;

        public int PriorityInCategory => 0;

        public bool IsNumeric => true;

        public UnitType UnitType => UnitType.Dimensionless;

        public string Legend => $"Encoded bytes per id ({policy} block encoding)";

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
        {
            var gaps = (string)benchmarkCase.Parameters["Gaps"];
            var encoded = PostingsEncoder.EncodeToArray(MakeIds(gaps, Count, seed: 1), default, policy);
            return ((double)encoded.Length / Count).ToString("0.000", System.Globalization.CultureInfo.InvariantCulture);
        }

        public bool IsAvailable(Summary summary) => true;

        public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;
    }
}
