using System.Numerics;
using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

/// <summary>
/// The buffers one searcher's iterators decode into: block decoders, chunk copies, norms blocks, the
/// term-walk buffers and a spare bit set. A query used to allocate them all (2.5 KB per term, 125 KB per range
/// at a million entries), which made a gen0 collection every hundred or so queries; the index keeps
/// these between searchers instead. Everything lent out is taken back at once when the searcher ends,
/// which is safe because iterators read through the searcher's snapshot and die with it.
/// </summary>
internal sealed class SearchScratch
{
    /// <summary>Chunk buffers start at this size; a term's inline list or a posting chunk rarely exceeds it.</summary>
    public const int ChunkBufferSize = 1024;

    /// <summary>How many decoders, and how many buffers, a scratch keeps between searchers.</summary>
    public const int MaxKept = 64;

    /// <summary>
    /// How many of each a scratch tracks as lent at once. A searcher kept open for many queries may make
    /// iterators it never exhausts; past this, they get buffers of their own that the GC takes back, as
    /// before the scratch existed, rather than a list that grows with every query.
    /// </summary>
    public const int MaxLent = 256;

    private readonly Stack<PostingsIterator> _freeDecoders = new();
    private readonly List<PostingsIterator> _lentDecoders = [];
    private readonly List<byte[]> _freeBuffers = [];
    private readonly List<byte[]> _lentBuffers = [];
    private (float[] Scores, ulong[] Present)? _spareWindow;

    /// <summary>Id buffer of a term walk (<see cref="IndexSearcher"/>'s union of terms); may be replaced by a larger one.</summary>
    public long[] WalkIds { get; set; } = new long[PostingsFormat.BlockSize];

    /// <summary>Frequency buffer matching <see cref="WalkIds"/>.</summary>
    public int[] WalkFrequencies { get; set; } = new int[PostingsFormat.BlockSize];

    /// <summary>Decoded-term buffer of a term walk; may be replaced by a larger one.</summary>
    public byte[] WalkTerm { get; set; } = new byte[TermEncoding.MaxTermBytes * 2 + 2];

    /// <summary>Term-key buffer matching <see cref="WalkTerm"/>.</summary>
    public byte[] WalkTermKey { get; set; } = new byte[TermEncoding.MaxTermBytes * 2 + 2];

    /// <summary>Creates empty pools.</summary>
    public SearchScratch()
    {
        ReleaseBits = bits => SpareBits = bits;
    }

    /// <summary>A cleared bit set an exhausted union handed back, or null.</summary>
    public ulong[]? SpareBits { get; private set; }

    /// <summary>Where an exhausted bit-set iterator hands its cleared set back (one delegate, not one per query).</summary>
    public Action<ulong[]> ReleaseBits { get; }

    /// <summary>Counts the searchers that have ended on this scratch: what it lent before the current value is no longer the borrower's.</summary>
    public int Generation { get; private set; }

    /// <summary>How many decoders exist in this scratch, lent or free (what a query's peak left behind).</summary>
    public int DecoderCount => _freeDecoders.Count + _lentDecoders.Count;

    /// <summary>A block decoder for the current searcher's lifetime.</summary>
    public PostingsIterator RentDecoder()
    {
        if (_lentDecoders.Count >= MaxLent)
            return new PostingsIterator();
        var decoder = _freeDecoders.Count > 0 ? _freeDecoders.Pop() : new PostingsIterator();
        _lentDecoders.Add(decoder);
        return decoder;
    }

    /// <summary>A buffer of at least <paramref name="minLength"/> bytes (contents undefined) for the current searcher's lifetime.</summary>
    public byte[] RentBuffer(int minLength = ChunkBufferSize)
    {
        var size = Math.Max(ChunkBufferSize, (int)BitOperations.RoundUpToPowerOf2((uint)minLength));
        if (_lentBuffers.Count >= MaxLent)
            return new byte[size];
        byte[]? buffer = null;
        for (var i = _freeBuffers.Count - 1; i >= 0; i--)
        {
            if (_freeBuffers[i].Length >= minLength)
            {
                buffer = _freeBuffers[i];
                _freeBuffers.RemoveAt(i);
                break;
            }
        }
        buffer ??= new byte[size];
        _lentBuffers.Add(buffer);
        return buffer;
    }

    /// <summary>A cleared bit set covering ids below <paramref name="idLimit"/>: the spare one when it is large enough.</summary>
    public ulong[] RentBits(long idLimit)
    {
        var words = (idLimit + 63) >> 6;
        var spare = SpareBits;
        SpareBits = null;
        return spare is not null && spare.Length >= words ? spare : new ulong[words];
    }

    /// <summary>
    /// The score and presence arrays of a windowed disjunction (<see cref="Scoring.WindowedDisjunction"/>):
    /// the spare pair when one was handed back, else a new one. Contents undefined.
    /// </summary>
    public (float[] Scores, ulong[] Present) RentWindow()
    {
        if (_spareWindow is { } spare)
        {
            _spareWindow = null;
            return spare;
        }
        return (new float[Scoring.WindowedDisjunction.WindowSize], new ulong[Scoring.WindowedDisjunction.WindowSize / 64]);
    }

    /// <summary>Keeps a window pair for the next windowed walk.</summary>
    public void ReturnWindow(float[] scores, ulong[] present) => _spareWindow = (scores, present);

    /// <summary>Takes back one decoder before the searcher ends (a term walk done with a term).</summary>
    public void Return(PostingsIterator decoder)
    {
        var index = _lentDecoders.LastIndexOf(decoder);
        if (index < 0)
            return;
        _lentDecoders.RemoveAt(index);
        _freeDecoders.Push(decoder);
    }

    /// <summary>Takes back one buffer before the searcher ends (replaced by a larger one, or its user is done).</summary>
    public void Return(byte[] buffer)
    {
        var index = _lentBuffers.LastIndexOf(buffer);
        if (index < 0)
            return;
        _lentBuffers.RemoveAt(index);
        _freeBuffers.Add(buffer);
    }

    /// <summary>
    /// Takes back everything lent since the last call (the searcher ended). A query over many terms at once
    /// (a long <c>in</c> list, many search words) lends one decoder per term; only
    /// <see cref="MaxKept"/> of each kind are kept, so one such query does not pin its peak for good.
    /// </summary>
    public void ReturnAll()
    {
        Generation++;
        foreach (var decoder in _lentDecoders)
        {
            if (_freeDecoders.Count < MaxKept)
                _freeDecoders.Push(decoder);
        }
        _lentDecoders.Clear();
        foreach (var buffer in _lentBuffers)
        {
            if (_freeBuffers.Count < MaxKept)
                _freeBuffers.Add(buffer);
        }
        _lentBuffers.Clear();
    }
}
