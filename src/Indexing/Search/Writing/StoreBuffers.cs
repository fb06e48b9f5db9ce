namespace Folio.Indexing.Search;

/// <summary>
/// The arrays a batch's posting stores decode a term's chunks into and encode them from, and its point stores decode,
/// merge and encode a field's blocks in: kept in one pool for every index and lent to a batch from its first field to
/// its end (<see cref="Rent"/>, <see cref="Return"/>).
/// </summary>
/// <remarks>
/// Each store allocated its own, a posting store at every field's start and flush and a point store at every numeric
/// field's flush, and they are past the large-object threshold (a chunk's encoding takes about 120 KB; a few merged point
/// blocks tens of thousands of points). Under a stream of small batches that made nearly every collection a background
/// full one (73 of 89 in 15 s of the soak), and those sweep without compacting, so the fragmented heap and the resident
/// memory kept growing. A batch's stores run one after another, so they share one set. A set per index instead of a
/// pool cost about 230 KB for every index loaded, written to or not: 700 MB with 1,000 databases of three indexes
/// loaded. Batches run on the shared indexing threads, so the sets in use at once are about as many as those threads.
/// </remarks>
internal sealed class StoreBuffers
{
    // As many as the indexing threads run batches at once by default (sixteen at most); a batch beyond them allocates a set
    // and drops it at its end.
    private const int MaxPooled = 16;
    private static readonly Stack<StoreBuffers> Pool = new();

    // Kept between batches up to these sizes; a batch that grew them past it (a term of a million postings) gives the excess back.
    private const int RetainedPoints = 1 << 16;
    private static readonly int DefaultEncodedLength = PostingStore.EncodedLength(PostingStore.ChunkSize * 2);

    /// <summary>A term's ids while a posting store rewrites it.</summary>
    public long[] Ids { get; private set; } = new long[PostingStore.ChunkSize * 2];

    /// <summary>The frequencies that go with <see cref="Ids"/>.</summary>
    public int[] Frequencies { get; private set; } = new int[PostingStore.ChunkSize * 2];

    /// <summary>A posting chunk's encoding.</summary>
    public byte[] Encoded { get; private set; } = new byte[DefaultEncodedLength];

    /// <summary>The positions that go with <see cref="Ids"/> in a full-text field, as many for each id as its frequency.</summary>
    public int[] Positions { get; private set; } = new int[PostingStore.ChunkSize * 2];

    /// <summary>A posting list's positions' encoding (<see cref="PositionLists"/>), grown by the encoder.</summary>
    public byte[] EncodedPositions { get; set; } = new byte[PostingStore.ChunkSize];

    /// <summary>The points of the block a point store decoded last.</summary>
    public Point[] StoredPoints { get; set; } = new Point[256];

    /// <summary>The points a point store merged from blocks and changes.</summary>
    public Point[] MergedPoints { get; set; } = new Point[256];

    /// <summary>A point block's encoding.</summary>
    public byte[] EncodedPoints { get; set; } = new byte[PointStore.EncodedBlockBytes];

    /// <summary>A set no other batch uses until it comes back through <see cref="Return"/>.</summary>
    public static StoreBuffers Rent()
    {
        lock (Pool)
        {
            if (Pool.Count > 0)
                return Pool.Pop();
        }
        return new StoreBuffers();
    }

    /// <summary>Takes back a set its batch no longer uses, shrunk to the retained sizes (<see cref="Release"/>).</summary>
    public static void Return(StoreBuffers buffers)
    {
        buffers.Release();
        lock (Pool)
        {
            if (Pool.Count < MaxPooled)
                Pool.Push(buffers);
        }
    }

    /// <summary>Makes the posting arrays hold at least <paramref name="count"/> postings.</summary>
    public void EnsurePostings(int count)
    {
        if (count <= Ids.Length)
            return;
        Ids = new long[count];
        Frequencies = new int[count];
        Encoded = new byte[PostingStore.EncodedLength(count)];
    }

    /// <summary>Makes <see cref="Positions"/> hold at least <paramref name="count"/> positions, keeping those it holds.</summary>
    public void EnsurePositions(int count)
    {
        if (count <= Positions.Length)
            return;
        var positions = Positions;
        Array.Resize(ref positions, Math.Max(count, positions.Length * 2));
        Positions = positions;
    }

    /// <summary>Drops what a very large batch grew past the retained sizes, once the batch is done with them.</summary>
    private void Release()
    {
        if (Ids.Length > PostingStore.ChunkSize * 2)
        {
            Ids = new long[PostingStore.ChunkSize * 2];
            Frequencies = new int[PostingStore.ChunkSize * 2];
            Encoded = new byte[DefaultEncodedLength];
        }
        if (Positions.Length > PostingStore.ChunkSize * 8)
            Positions = new int[PostingStore.ChunkSize * 2];
        if (EncodedPositions.Length > PostingStore.ChunkSize * 8)
            EncodedPositions = new byte[PostingStore.ChunkSize];
        if (StoredPoints.Length > RetainedPoints)
            StoredPoints = new Point[256];
        if (MergedPoints.Length > RetainedPoints)
            MergedPoints = new Point[256];
    }
}
