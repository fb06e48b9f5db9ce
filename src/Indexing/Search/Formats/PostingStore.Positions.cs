using Folio.Storage;

namespace Folio.Indexing.Search;

// Positions (full-text fields): each posting list's positions (PositionLists) under the list's own key, or a sealed chunk's
// under its sequence number (PositionTrees), written, moved and deleted with the list. The buffers hold them after the
// ids', as many for an id as its frequency.
internal sealed partial class PostingStore
{
    /// <summary>How many positions the ids from <paramref name="from"/> up to <paramref name="to"/> in the buffers have.</summary>
    private int PositionCount(int from, int to) => _positions is null ? 0 : PositionLists.Count(_frequencies.AsSpan(from, to - from));

    /// <summary>
    /// Reads the positions of the list under <paramref name="key"/> (sealed chunk <paramref name="seal"/> when it is not
    /// negative), whose <paramref name="count"/> ids are in the buffers from <paramref name="at"/>, into the buffers after
    /// the positions of the ids before them.
    /// </summary>
    private void LoadPositions(ReadOnlySpan<byte> key, long seal, int at, int count)
    {
        if (_positions is null)
            return;
        var found = seal < 0 ? _positions.Lists.TryGet(key, out var encoded) : _positions.Sealed.TryGet(SealedPositionsKey(seal), out encoded);
        if (!found)
            throw new CorruptionException("A posting list of a full-text field has no positions.");
        var offset = PositionCount(0, at);
        var length = PositionCount(at, at + count);
        _buffers.EnsurePositions(offset + length);
        PositionLists.Decode(encoded, _frequencies.AsSpan(at, count), _buffers.Positions.AsSpan(offset, length));
    }

    /// <summary>Writes the positions of the first <paramref name="count"/> ids in the buffers under <paramref name="key"/>.</summary>
    private void PutPositions(ReadOnlySpan<byte> key, int count)
    {
        if (_positions is not null)
            _positions.Lists.Put(key, EncodePositions(count));
    }

    /// <summary>Writes the positions of the first <paramref name="count"/> ids in the buffers as those of sealed chunk <paramref name="seal"/>.</summary>
    private void PutSealedPositions(long seal, int count)
    {
        if (_positions is not null)
            _positions.Sealed.Put(SealedPositionsKey(seal), EncodePositions(count));
    }

    private ReadOnlySpan<byte> EncodePositions(int count)
    {
        var encoded = _buffers.EncodedPositions;
        var length = PositionLists.Encode(_frequencies.AsSpan(0, count), _buffers.Positions.AsSpan(0, PositionCount(0, count)), ref encoded);
        _buffers.EncodedPositions = encoded;
        return encoded.AsSpan(0, length);
    }

    private void DeletePositions(ReadOnlySpan<byte> key) => _positions?.Lists.Delete(key);

    private ReadOnlySpan<byte> SealedPositionsKey(long seal)
    {
        WriteSealKey(seal, _sealKey);
        return _sealKey;
    }

    /// <summary>Copies <paramref name="positions"/> into the buffers after those of the first <paramref name="count"/> ids.</summary>
    private void AppendPositions(int count, ReadOnlySpan<int> positions)
    {
        if (_positions is null)
            return;
        var offset = PositionCount(0, count);
        _buffers.EnsurePositions(offset + positions.Length);
        positions.CopyTo(_buffers.Positions.AsSpan(offset));
    }

    /// <summary>
    /// Moves past one id's <paramref name="frequency"/> positions at <paramref name="read"/> while the ids in the buffers
    /// are compacted, keeping them at <paramref name="write"/> when the id stays.
    /// </summary>
    private void KeepPositions(ref int read, ref int write, int frequency, bool keep)
    {
        if (_positions is null)
            return;
        if (keep)
        {
            if (read != write)
                Array.Copy(_buffers.Positions, read, _buffers.Positions, write, frequency);
            write += frequency;
        }
        read += frequency;
    }

    /// <summary>Moves the positions of the ids from <paramref name="from"/> on (to <paramref name="to"/>) to the buffers' front.</summary>
    private void ShiftPositions(int from, int to)
    {
        if (_positions is null)
            return;
        var skip = PositionCount(0, from);
        Array.Copy(_buffers.Positions, skip, _buffers.Positions, 0, PositionCount(from, to));
    }
}
