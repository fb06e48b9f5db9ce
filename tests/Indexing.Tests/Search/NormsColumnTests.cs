using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>A full-text field's lengths in bit-packed blocks (<see cref="NormsColumn"/>): what is read back, where blocks live, and broken blocks.</summary>
public class NormsColumnTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(13)]
    [InlineData(16)]
    public void Get_ReadsBackEveryLength_OfAnyWidth(int bits)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        var random = new Random(bits);
        const int entries = NormsColumn.BlockSize * 2 + 300;
        // Some entries without a length, the rest up to the width's largest value (65,535 at 16 bits).
        var lengths = Enumerable.Range(0, entries).Select(i => i % 9 == 0 ? 0 : random.Next(1, 1 << bits)).ToArray();
        lengths[5] = (1 << bits) - 1;
        var capped = bits == 16 ? 70_000 : lengths[6];
        using (var tx = environment.BeginWrite())
        {
            var column = new NormsColumn(tx.CreateTree("n"));
            for (var id = 0; id < entries; id++)
                column.Set(id, id == 6 ? capped : lengths[id]);
            column.Flush();
            tx.Commit();
        }
        // A length past a ushort's is kept as 65,535.
        lengths[6] = Math.Min(capped, ushort.MaxValue);
        // A second batch changes some, clears others, and reads its own changes.
        using (var tx = environment.BeginWrite())
        {
            var column = new NormsColumn(tx.CreateTree("n"));
            for (var id = 3; id < entries; id += 7)
            {
                lengths[id] = id % 2 == 0 ? 0 : 1;
                column.Set(id, lengths[id]);
                Assert.Equal(lengths[id], column.Get(id));
            }
            column.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("n")!;
        var reader = new NormsColumn(tree);
        for (var id = 0; id < entries; id++)
        {
            Assert.Equal(lengths[id], reader.Get(id));
            var block = reader.StoredBlock(id / NormsColumn.BlockSize);
            Assert.Equal(lengths[id], NormsColumn.ReadLength(block, id % NormsColumn.BlockSize));
        }
        // Up to 13 bits a block of 2,048 lengths (3.3 KB) stays inline in its leaf instead of taking a page; at 16 bits it is over half a leaf.
        Assert.Equal(bits <= 13, tree.Header.OverflowPages == 0);
    }

    [Fact]
    public void Flush_RemovesABlock_WhoseLengthsAreAllCleared()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var column = new NormsColumn(tx.CreateTree("n"));
        column.Set(10, 30);
        column.Flush();
        column.Set(10, 0);
        column.Flush();
        Assert.Equal(0, column.Tree.Count);
        Assert.True(column.StoredBlock(0).IsEmpty);
        Assert.Equal(0, column.Get(10));
    }

    [Theory]
    [InlineData(new byte[] { 0, 0, 0 })]       // width 0
    [InlineData(new byte[] { 17, 0, 0 })]      // wider than a ushort
    [InlineData(new byte[] { 5, 0, 0 })]       // 5 bits a length, but no room for 2,048 of them
    public void StoredBlock_ThrowsCorruption_ForABlockThatDoesNotFitItsHeader(byte[] stored)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var tree = tx.CreateTree("n");
        tree.Put(new byte[8], stored);
        var column = new NormsColumn(tree);
        Assert.Throws<CorruptionException>(() => column.StoredBlock(0));
        Assert.Throws<CorruptionException>(() => column.Get(0));
    }
}
