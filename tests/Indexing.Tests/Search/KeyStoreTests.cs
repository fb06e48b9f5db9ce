using System.Text;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>The key → entry id map in front-coded blocks (<see cref="KeyStore"/>): against a model, its block layout, and corrupt blocks.</summary>
public class KeyStoreTests
{
    private static byte[] Utf8(string key) => Encoding.UTF8.GetBytes(key);

    /// <summary>A key of one of the shapes real ids take: numbered, prefixed and numbered, unicode, random, or as long as keys may be.</summary>
    private static string RandomKey(Random random, int number) => random.Next(6) switch
    {
        0 => number.ToString(System.Globalization.CultureInfo.InvariantCulture),
        // Fifteen bytes: a block's first key then shares all fifteen, past the one-byte head.
        1 => $"orders/{number + 100_000}-A",
        2 => $"üsers/{random.Next(5_000)}/ñ",
        3 => Guid.NewGuid().ToString(),
        4 => new string((char)('a' + random.Next(26)), random.Next(1, 4)),
        _ => new string('k', random.Next(SearchIndex.MaxKeyBytes - 40, SearchIndex.MaxKeyBytes - 12)) + number,
    };

    /// <summary>Walks the stored blocks, checking order and limits, and returns every key → id they hold.</summary>
    private static List<(string Key, long Id)> StoredKeys(Folio.Storage.Trees.Tree tree)
    {
        var keys = new List<(string, long)>();
        byte[]? previous = null;
        var cursor = tree.CreateCursor();
        Span<byte> current = stackalloc byte[SearchIndex.MaxKeyBytes];
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var block = cursor.Value;
            var position = 0;
            var length = KeyStore.FirstKey(cursor.Key, block, current);
            long id = 0;
            var count = 0;
            while (position < block.Length)
            {
                KeyStore.ReadEntry(block, ref position, current, ref length, ref id);
                var key = current[..length].ToArray();
                if (count == 0)
                    Assert.Equal(KeyStore.TreeKey(key, new byte[KeyStore.TreeKeyLength(key.Length)]).ToArray(), cursor.Key.ToArray());
                Assert.True(previous is null || KeyStore.Compare(previous, key) < 0, "keys out of order");
                previous = key;
                keys.Add((Encoding.UTF8.GetString(key), id));
                count++;
            }
            Assert.InRange(count, 1, KeyStore.MaxBlockKeys);
            if (count > 1)
                Assert.True(cursor.Key.Length + block.Length <= KeyStore.MaxBlockBytes, $"a block of {count} keys has {cursor.Key.Length} + {block.Length} bytes");
        }
        return keys;
    }

    /// <summary>Each stored block's first key's length and number of keys, in order.</summary>
    private static List<(int FirstKeyLength, int Keys)> BlockSizes(Folio.Storage.Trees.Tree tree)
    {
        var sizes = new List<(int, int)>();
        var cursor = tree.CreateCursor();
        var current = new byte[SearchIndex.MaxKeyBytes];
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var count = 0;
            var position = 0;
            var length = KeyStore.FirstKey(cursor.Key, cursor.Value, current);
            long id = 0;
            while (position < cursor.Value.Length)
            {
                KeyStore.ReadEntry(cursor.Value, ref position, current, ref length, ref id);
                count++;
            }
            sizes.Add((cursor.Key.Length - 2, count));
        }
        return sizes;
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void PutAndRemove_MatchAModel_AcrossTransactions(int seed)
    {
        var random = new Random(seed);
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() });
        var model = new Dictionary<string, long>(StringComparer.Ordinal);
        long nextId = 0;
        var number = 0;
        for (var round = 0; round < 25; round++)
        {
            using var tx = environment.BeginWrite();
            var store = new KeyStore(tx.CreateTree("keys"));
            var changes = random.Next(0, round % 4 == 0 ? 3_000 : 300);
            for (var i = 0; i < changes; i++)
            {
                string key;
                if (model.Count > 0 && random.Next(4) == 0)
                    key = model.Keys.ElementAt(random.Next(model.Count));
                else
                    key = RandomKey(random, number++);
                if (random.Next(5) == 0)
                {
                    store.Remove(Utf8(key));
                    model.Remove(key);
                }
                else
                {
                    store.Put(Utf8(key), nextId);
                    model[key] = nextId++;
                }
                var probe = model.Count > 0 && random.Next(2) == 0 ? model.Keys.ElementAt(random.Next(model.Count)) : RandomKey(random, -1);
                Assert.Equal(model.TryGetValue(probe, out var expected), store.TryGet(Utf8(probe), out var actual));
                Assert.Equal(expected, model.ContainsKey(probe) ? actual : 0);
            }
            store.Flush();
            // The store serves lookups after a flush as before it, from the blocks it wrote.
            foreach (var (key, id) in model.Where(_ => random.Next(10) == 0))
            {
                Assert.True(store.TryGet(Utf8(key), out var flushed));
                Assert.Equal(id, flushed);
            }
            tx.Commit();
        }

        using var read = environment.BeginRead();
        var tree = read.OpenTree("keys")!;
        var expectedKeys = model.OrderBy(p => Utf8(p.Key), Comparer<byte[]>.Create((a, b) => KeyStore.Compare(a, b))).Select(p => (p.Key, p.Value)).ToList();
        Assert.Equal(expectedKeys, StoredKeys(tree));
        var scratch = new byte[KeyStore.TreeKeyLength(SearchIndex.MaxKeyBytes)];
        var current = new byte[SearchIndex.MaxKeyBytes];
        foreach (var (key, id) in model)
        {
            Assert.True(KeyStore.TryGet(tree.CreateCursor(), Utf8(key), scratch, current, out var stored));
            Assert.Equal(id, stored);
        }
        foreach (var absent in new[] { "", "0", "zzzzzzzz", "orders/-1-A", new string('z', SearchIndex.MaxKeyBytes) })
            Assert.Equal(model.ContainsKey(absent), KeyStore.TryGet(tree.CreateCursor(), Utf8(absent), scratch, current, out _));
        // Keys as long as keys may be stay inline in their leaves.
        Assert.Equal(0, tree.Header.OverflowPages);
    }

    [Fact]
    public void Flush_FillsBlocks_ForKeysNumberedInOrder()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        const int keys = 20_000;
        for (var batch = 0; batch < 10; batch++)
        {
            using var tx = environment.BeginWrite();
            var store = new KeyStore(tx.CreateTree("keys"));
            for (var i = batch * keys / 10; i < (batch + 1) * keys / 10; i++)
                store.Put(Utf8(i.ToString(System.Globalization.CultureInfo.InvariantCulture)), i);
            store.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("keys")!;
        Assert.Equal(keys, StoredKeys(tree).Count);
        // Every block but the last of each length's run full: numbered keys only ever extend the last block.
        Assert.InRange(tree.Count, keys / KeyStore.MaxBlockKeys, keys / KeyStore.MaxBlockKeys + 5);
    }

    [Fact]
    public void Flush_SplitsAFullBlockInHalves_ForOneMoreKey()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = environment.BeginWrite())
        {
            var store = new KeyStore(tx.CreateTree("keys"));
            for (var i = 0; i < KeyStore.MaxBlockKeys; i++)
                store.Put(Utf8($"k{i * 2:D4}"), i);
            store.Put(Utf8("z0000"), 999);
            store.Flush();
            store.Put(Utf8("k0001"), 1_000);
            store.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("keys")!;
        Assert.Equal(3, tree.Count);
        // The last block of the tree ("z0000") is not the one split.
        Assert.Equal([(KeyStore.MaxBlockKeys + 1) / 2 + 1, KeyStore.MaxBlockKeys / 2, 1], BlockSizes(tree).Select(b => b.Keys));
    }

    [Fact]
    public void Flush_FillsBlocks_ForOneNumberedKeyPerBatch()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        const int keys = 2_000;
        for (var i = 0; i < keys; i++)
        {
            using var tx = environment.BeginWrite();
            var store = new KeyStore(tx.CreateTree("keys"));
            store.Put(Utf8($"orders/{i + 10_000}"), i);
            store.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("keys")!;
        Assert.Equal(keys, StoredKeys(tree).Count);
        Assert.Equal((keys + KeyStore.MaxBlockKeys - 1) / KeyStore.MaxBlockKeys, tree.Count);
    }

    [Fact]
    public void Flush_SplitsEvenly_ForKeysOfUnevenSizes()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = environment.BeginWrite())
        {
            var store = new KeyStore(tx.CreateTree("keys"));
            // A block for the keys below to fall in, and one after it (too long to share a block), so theirs is not the tree's last block.
            store.Put(Utf8("a"), 98);
            store.Put(Utf8(new string('z', 1_020)), 99);
            store.Flush();
            for (var i = 0; i < 20; i++)
            {
                var tail = i % 2 == 0 ? new string((char)('a' + i), 99) : new string('m', 98) + (char)('a' + i);
                store.Put(Utf8("k" + tail), i);
            }
            store.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var tree = read.OpenTree("keys")!;
        Assert.Equal(22, StoredKeys(tree).Count);
        var smallest = BlockSizes(tree).Where(b => b.FirstKeyLength != 1_020).Min(b => b.Keys);
        Assert.Equal(3, tree.Count);
        Assert.True(smallest >= 8, $"a block of {smallest} keys");
    }

    [Theory]
    [InlineData(new byte[] { 0x20, 2 })]                    // shares two bytes of a one-byte key
    [InlineData(new byte[] { 0x15, (byte)'b', 2 })]         // five new bytes where two are left
    [InlineData(new byte[] { 0x10, 3 })]                    // an id below zero
    [InlineData(new byte[] { 0x10 })]                       // no id
    [InlineData(new byte[] { 0x10, 0x80 })]                 // an id cut off
    [InlineData(new byte[] { 0x00, 2 })]                    // a key of no bytes
    [InlineData(new byte[0])]                               // no keys
    [InlineData(new byte[] { 0xF3, 0, 0, 2 })]              // a head no key has
    [InlineData(new byte[] { 0xF0, 1 })]                    // lengths cut off
    public void TryGet_ThrowsCorruption_ForABrokenBlock(byte[] block)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var tree = tx.CreateTree("keys");
        tree.Put(KeyStore.TreeKey("a"u8, new byte[3]), block);
        Assert.Throws<CorruptionException>(() => KeyStore.TryGet(tree.CreateCursor(), "b"u8, new byte[3], new byte[SearchIndex.MaxKeyBytes], out _));
    }

    [Fact]
    public void Flush_ThrowsCorruption_ForABlockWithKeysOutOfOrder()
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = environment.BeginWrite();
        var tree = tx.CreateTree("keys");
        // "b", then "a": the merge would write "a" after "b".
        tree.Put(KeyStore.TreeKey("b"u8, new byte[3]), [0x10, 2, 0x01, (byte)'a', 2]);
        var store = new KeyStore(tree);
        store.Put(Utf8("c"), 7);
        Assert.Throws<CorruptionException>(store.Flush);
    }
}
