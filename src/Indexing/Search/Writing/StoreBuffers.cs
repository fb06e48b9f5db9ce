namespace Folio.Indexing.Search;

/// <summary>
/// The arrays a batch's posting stores decode a term's chunks into and encode them from, and its point stores decode,
/// merge and encode a field's blocks in: kept by the index and lent to the batch that holds its write transaction.
/// </summary>
/// <remarks>
/// Each store allocated its own, a posting store at every field's start and flush and a point store at every numeric
/// field's flush, and they are past the large-object threshold (a chunk's encoding takes about 120 KB; a few merged point
/// blocks tens of thousands of points). Under a stream of small batches that made nearly every collection a background
/// full one (73 of 89 in 15 s of the soak), and those sweep without compacting, so the fragmented heap and the resident
/// memory kept growing. A batch's stores run one after another, so they share one set.
/// </remarks>
internal sealed class StoreBuffers
{
    // Kept between batches up to these sizes; a batch that grew them past it (a term of a million postings) gives the excess back.
    private const int RetainedPoints = 1 << 16;
    private static readonly int DefaultEncodedLength = PostingStore.EncodedLength(PostingStore.ChunkSize * 2);

    /// <summary>A term's ids while a posting store rewrites it.</summary>
    public long[] Ids { get; private set; } = new long[PostingStore.ChunkSize * 2];

    /// <summary>The frequencies that go with <see cref="Ids"/>.</summary>
    public int[] Frequencies { get; private set; } = new int[PostingStore.ChunkSize * 2];

    /// <summary>A posting chunk's encoding.</summary>
    public byte[] Encoded { get; private set; } = new byte[DefaultEncodedLength];

    /// <summary>The points of the block a point store decoded last.</summary>
    public Point[] StoredPoints { get; set; } = new Point[256];

    /// <summary>The points a point store merged from blocks and changes.</summary>
    public Point[] MergedPoints { get; set; } = new Point[256];

    /// <summary>A point block's encoding.</summary>
    public byte[] EncodedPoints { get; set; } = new byte[PointStore.EncodedBlockBytes];

    /// <summary>Makes the posting arrays hold at least <paramref name="count"/> postings.</summary>
    public void EnsurePostings(int count)
    {
        if (count <= Ids.Length)
            return;
        Ids = new long[count];
        Frequencies = new int[count];
        Encoded = new byte[PostingStore.EncodedLength(count)];
    }

    /// <summary>Drops what a very large batch grew past the retained sizes, once the batch is done with them.</summary>
    public void Release()
    {
        if (Ids.Length > PostingStore.ChunkSize * 2)
        {
            Ids = new long[PostingStore.ChunkSize * 2];
            Frequencies = new int[PostingStore.ChunkSize * 2];
            Encoded = new byte[DefaultEncodedLength];
        }
        if (StoredPoints.Length > RetainedPoints)
            StoredPoints = new Point[256];
        if (MergedPoints.Length > RetainedPoints)
            MergedPoints = new Point[256];
    }
}
