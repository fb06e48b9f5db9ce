using System.Buffers.Binary;
using Folio.Storage.Journal;
using Folio.Storage.Paging;
using Folio.Storage.Trees;

namespace Folio.Storage.Tests.Durability;

/// <summary>Recovery rebuilds each page of a record from its own bytes, though one buffer serves entries of every size.</summary>
public class TransactionRecordEntriesTests
{
    private const int Page = StorageLimits.PageSize;

    private static byte[] Filled(int length, byte value)
    {
        var bytes = new byte[length];
        Array.Fill(bytes, value);
        return bytes;
    }

    [Fact]
    public void ReadEntries_ALargeEntryThenSmallerOnes_AppliesEachPageFromItsOwnBytes()
    {
        // An overflow value of four pages (kept whole), then a leaf with a gap between its slots and its entries (kept
        // without the gap), then a heap run the transaction only changed (its header and one range of values).
        var overflow = Filled(4 * Page, 0xAA);
        PageHeader.Initialize(overflow, 10, PageFlags.Overflow);
        PageHeader.SetOverflow(overflow, overflow.Length - PageHeader.Size, 4);
        var leaf = Filled(Page, 0x11);
        PageHeader.Initialize(leaf, 20, PageFlags.Leaf);
        PageHeader.SetCount(leaf, 3);
        PageHeader.SetUpper(leaf, 6_000);
        var run = Filled(Tree.HeapRunBytes, 0x22);
        HeapRun.Initialize(run, 30, Tree.HeapRunPages);
        var (prefixEnd, start, end) = (HeapRun.SlotsEnd(run), 40_000, 40_100);

        var payload = new byte[TransactionRecord.EntrySize(overflow) + TransactionRecord.EntrySize(leaf) + TransactionRecord.PartialEntrySize(prefixEnd, start, end)];
        var offset = TransactionRecord.WriteEntry(payload, 10, overflow);
        offset += TransactionRecord.WriteEntry(payload.AsSpan(offset), 20, leaf);
        TransactionRecord.WritePartialEntry(payload.AsSpan(offset), 30, run, prefixEnd, start, end);

        var applied = new Dictionary<long, byte[]>();
        var buffer = Array.Empty<byte>();
        TransactionRecord.ReadEntries(payload, 3, ref buffer, (_, count, target) => target.AsSpan(0, count * Page).Fill(0x77), (page, bytes, length) => applied[page] = bytes.AsSpan(0, length).ToArray());

        Assert.Equal(overflow, applied[10]);
        var lower = PageHeader.Size + 2 * 3;
        Assert.Equal(leaf.AsSpan(0, lower).ToArray(), applied[20].AsSpan(0, lower).ToArray());
        Assert.True(applied[20].AsSpan(lower, 6_000 - lower).IndexOfAnyExcept((byte)0) < 0, "the leaf's gap holds bytes of the overflow entry before it");
        Assert.Equal(leaf.AsSpan(6_000).ToArray(), applied[20].AsSpan(6_000).ToArray());
        var rebuilt = applied[30];
        Assert.Equal(Tree.HeapRunBytes, rebuilt.Length);
        Assert.Equal(run.AsSpan(0, prefixEnd).ToArray(), rebuilt.AsSpan(0, prefixEnd).ToArray());
        Assert.Equal(run.AsSpan(start, end - start).ToArray(), rebuilt.AsSpan(start, end - start).ToArray());
        Assert.True(rebuilt.AsSpan(prefixEnd, start - prefixEnd).IndexOfAnyExcept((byte)0x77) < 0, "bytes outside the kept ranges come from the data file");
        Assert.True(rebuilt.AsSpan(end).IndexOfAnyExcept((byte)0x77) < 0, "bytes outside the kept ranges come from the data file");
        Assert.Equal(Tree.HeapRunBytes, buffer.Length);
    }

    [Fact]
    public void ReadEntries_EntryWhoseGapEndsPastItsPage_IsACorruption()
    {
        var leaf = new byte[Page];
        PageHeader.Initialize(leaf, 20, PageFlags.Leaf);
        PageHeader.SetCount(leaf, 3);
        PageHeader.SetUpper(leaf, 6_000);
        var payload = new byte[TransactionRecord.EntrySize(leaf)];
        TransactionRecord.WriteEntry(payload, 20, leaf);
        BinaryPrimitives.WriteUInt16LittleEndian(payload.AsSpan(14), Page + 1);

        var buffer = Array.Empty<byte>();
        var applied = 0;
        var error = Assert.Throws<CorruptionException>(() => TransactionRecord.ReadEntries(payload, 1, ref buffer, (_, _, _) => { }, (_, _, _) => applied++));

        Assert.Contains("page 20", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, applied);
    }
}
