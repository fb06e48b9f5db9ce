using Lucene.Net.Store;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// A terms dictionary's input that checks the guard of the term walk on its thread (<see cref="TermsDictionaryWatch"/>)
/// every <see cref="ReadStride"/> + 1 bulk reads. The codec reads each block of terms it enters with a few of them (its
/// suffixes, then its statistics and metadata), so a walk that matches nothing is checked every few blocks. Everything
/// else passes straight to the input it wraps.
/// </summary>
internal sealed class WatchedIndexInput : IndexInput
{
    private const int ReadStride = 31;

    private readonly IndexInput _input;
    private readonly bool _isClone;
    private int _bulkReads;

    public WatchedIndexInput(IndexInput input)
        : this(input, isClone: false)
    {
    }

    private WatchedIndexInput(IndexInput input, bool isClone)
        : base(input.ToString())
    {
        _input = input;
        _isClone = isClone;
    }

    public override long Position => _input.Position;

    public override long Length => _input.Length;

    public override void Seek(long pos) => _input.Seek(pos);

    public override byte ReadByte() => _input.ReadByte();

    public override void ReadBytes(byte[] b, int offset, int len)
    {
        Watch();
        _input.ReadBytes(b, offset, len);
    }

    public override void ReadBytes(byte[] b, int offset, int len, bool useBuffer)
    {
        Watch();
        _input.ReadBytes(b, offset, len, useBuffer);
    }

    public override short ReadInt16() => _input.ReadInt16();

    public override int ReadInt32() => _input.ReadInt32();

    public override long ReadInt64() => _input.ReadInt64();

    public override int ReadVInt32() => _input.ReadVInt32();

    public override long ReadVInt64() => _input.ReadVInt64();

    public override void SkipBytes(long numBytes) => _input.SkipBytes(numBytes);

    public override object Clone() => new WatchedIndexInput((IndexInput)_input.Clone(), isClone: true);

    // The dictionary reads a block's suffixes and statistics with one call each: this is where a walk moves on.
    private void Watch()
    {
        if (TermsDictionaryWatch.Current is { } guard && (_bulkReads++ & ReadStride) == 0)
            guard.Check();
    }

    protected override void Dispose(bool disposing)
    {
        // Lucene never closes clones; the original closes the file they share.
        if (disposing && !_isClone)
            _input.Dispose();
    }
}
