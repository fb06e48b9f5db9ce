using Lucene.Net.Store;
using LuceneDirectory = Lucene.Net.Store.Directory;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// The directory searchers read an index through: its terms dictionaries (<c>.tim</c> files, alone or inside a
/// compound file) come wrapped in a <see cref="WatchedIndexInput"/>, so the codec's own walks of them look at the guard
/// of the query walking. It does not own the directory it wraps: the index disposes that.
/// </summary>
internal sealed class WatchedDirectory(LuceneDirectory directory) : FilterDirectory(directory)
{
    private const string TermsDictionaryExtension = ".tim";

    public override IndexInput OpenInput(string name, IOContext context)
    {
        var input = base.OpenInput(name, context);
        return IsTermsDictionary(name) ? new WatchedIndexInput(input) : input;
    }

    // FilterDirectory leaves slicing to Directory's generic slices over OpenInput; the wrapped directory's own slicer
    // (positional reads of the compound file) is kept, with its dictionaries watched.
    public override IndexInputSlicer CreateSlicer(string name, IOContext context) => new WatchedSlicer(m_input.CreateSlicer(name, context));

    protected override void Dispose(bool disposing)
    {
    }

    private static bool IsTermsDictionary(string name) => name.EndsWith(TermsDictionaryExtension, StringComparison.Ordinal);

    private sealed class WatchedSlicer(IndexInputSlicer slicer) : IndexInputSlicer
    {
        public override IndexInput OpenSlice(string sliceDescription, long offset, long length)
        {
            var slice = slicer.OpenSlice(sliceDescription, offset, length);
            return IsTermsDictionary(sliceDescription) ? new WatchedIndexInput(slice) : slice;
        }

        [Obsolete("Only for reading CFS files from 3.x indexes.")]
        public override IndexInput OpenFullSlice() => slicer.OpenFullSlice();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
                slicer.Dispose();
        }
    }
}
