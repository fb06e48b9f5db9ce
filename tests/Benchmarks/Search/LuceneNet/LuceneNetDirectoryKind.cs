using Lucene.Net.Store;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>Which Lucene.Net directory the in-process column reads and writes through.</summary>
internal enum LuceneNetDirectoryKind
{
    /// <summary><see cref="NIOFSDirectory"/>: positional reads, what Folio's Lucene engine uses.</summary>
    NioFs,

    /// <summary><see cref="MMapDirectory"/>: memory-mapped reads, Lucene's default on 64-bit Linux.</summary>
    MMap,
}
