using System.Buffers.Binary;
using System.Diagnostics;
using System.Text;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Meta key present while records are moved to format 6's layout: a 0 byte before the first batch, else a 1 byte
    /// and the key of the last record moved. Records after it are still in the layout of format 5 and before.
    /// </summary>
    private static ReadOnlySpan<byte> RecordMoveKey => "records-moved-through"u8;

    /// <summary>The format whose record layout the move writes; a store opened in it or later can only be resuming a move.</summary>
    private const int RecordMoveFormat = 6;

    /// <summary>
    /// The opening transaction's part of the move to format 6: reads every record in the old layout first, so that a
    /// damaged one fails the open before anything is written and the store stays readable by the build that wrote it;
    /// gives every collection number the name its records will be read with (the casing the collection's count keeps,
    /// or the lower-cased name of a collection that has no documents left); and marks the records as still to be
    /// moved, which <see cref="MoveRecords"/> then does in batches.
    /// </summary>
    private static void StartRecordMove(WriteTransaction tx)
    {
        var docs = tx.OpenTree(DocsTree)!;
        var records = docs.CreateCursor();
        for (var more = records.First(); more; more = records.MoveNext())
            _ = new LegacyRecord(records.Key, records.Value);
        var numbers = tx.OpenTree(CollectionNumbers.Tree)!;
        var collections = tx.OpenTree(CollectionsTree)!;
        var unnamed = new List<(byte[] Key, uint Number)>();
        var cursor = numbers.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            if (cursor.Value.Length == 4)
                unnamed.Add((cursor.Key.ToArray(), BinaryPrimitives.ReadUInt32LittleEndian(cursor.Value)));
        }
        foreach (var (key, number) in unnamed)
        {
            var name = collections.TryGet(key, out var count) && count.Length > 8 ? count[8..].ToArray() : key;
            var value = numbers.Reserve(key, 4 + name.Length);
            BinaryPrimitives.WriteUInt32LittleEndian(value, number);
            name.CopyTo(value[4..]);
        }
        if (docs.Count > 0)
            tx.OpenTree(MetaTree)!.Put(RecordMoveKey, [0]);
    }

    /// <summary>
    /// Rewrites the records a store of format 5 or before holds in format 6's layout, a batch of a sixteenth of a
    /// journal file (16 KB to 16 MB) a transaction, so a store of any size moves without holding it all in one, and
    /// a crash resumes after the last batch committed. Bodies are copied as they are, compressed or not.
    /// </summary>
    /// <param name="openedFormat">The format the store was in when opened.</param>
    /// <param name="opened">Running since the open began.</param>
    /// <param name="progress">Told how far the move has got (<see cref="FormatMoveProgress"/>); nothing is reported for a store already in the current format.</param>
    private void MoveRecords(int openedFormat, Stopwatch opened, Action<FormatMoveProgress>? progress)
    {
        var batchBytes = Math.Clamp(Environment.Options.JournalFileSize / 16, 16L << 10, 16L << 20);
        var numbers = new MovedNumbers();
        var batch = new List<(byte[] Key, byte[] Record)>();
        var resumed = openedFormat >= RecordMoveFormat;
        long moved = 0, records = -1;
        var reported = TimeSpan.Zero;
        while (true)
        {
            using var tx = Environment.BeginWrite();
            var meta = tx.OpenTree(MetaTree)!;
            var docs = tx.OpenTree(DocsTree)!;
            if (!meta.TryGet(RecordMoveKey, out var through))
            {
                // A new or empty store is marked current without a move, and says nothing.
                if (records >= 0)
                    progress?.Invoke(new FormatMoveProgress(openedFormat, DocumentsFormat, moved, docs.Count, opened.Elapsed, Finished: true, resumed));
                return;
            }
            if (records < 0)
            {
                records = docs.Count;
                progress?.Invoke(new FormatMoveProgress(openedFormat, DocumentsFormat, 0, records, opened.Elapsed, Finished: false, resumed));
                reported = opened.Elapsed;
            }
            var after = through.Length > 1 ? through[1..].ToArray() : null;
            var numbersTree = tx.OpenTree(CollectionNumbers.Tree)!;
            var cursor = docs.CreateCursor();
            var more = after is null ? cursor.First() : cursor.Seek(after);
            if (more && after is not null && cursor.Key.SequenceEqual(after))
                more = cursor.MoveNext();
            batch.Clear();
            long bytes = 0;
            for (; more && bytes < batchBytes; more = cursor.MoveNext())
            {
                var record = Relaid(cursor.Key, cursor.Value, numbersTree, numbers);
                batch.Add((cursor.Key.ToArray(), record));
                bytes += cursor.Key.Length + record.Length;
            }
            foreach (var (key, record) in batch)
                docs.Put(key, record);
            if (more)
            {
                var last = batch[^1].Key;
                var marker = meta.Reserve(RecordMoveKey, 1 + last.Length);
                marker[0] = 1;
                last.CopyTo(marker[1..]);
            }
            else
            {
                meta.Delete(RecordMoveKey);
            }
            tx.Commit();
            moved += batch.Count;
            if (more && opened.Elapsed - reported >= TimeSpan.FromSeconds(1))
            {
                progress?.Invoke(new FormatMoveProgress(openedFormat, DocumentsFormat, moved, records, opened.Elapsed, Finished: false, resumed));
                reported = opened.Elapsed;
            }
        }
    }

    /// <summary>A record of format 5 or before in format 6's layout, its body copied as it is (a frame a read can rebuild, bare).</summary>
    private byte[] Relaid(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, Tree numbersTree, MovedNumbers numbers)
    {
        var legacy = new LegacyRecord(key, value);
        uint number;
        // Records come in id order, so mostly in runs of one collection: the run's number is kept to spare a string
        // and a lookup per record.
        if (numbers.Last is not null && legacy.Collection.SequenceEqual(numbers.Last))
        {
            number = numbers.LastNumber;
        }
        else
        {
            var collection = Encoding.UTF8.GetString(legacy.Collection);
            if (!numbers.ByName.TryGetValue(collection, out number))
            {
                number = CollectionNumbers.GetOrAdd(numbersTree, CollectionNames, Encoding.UTF8.GetBytes(collection.ToLowerInvariant()), legacy.Collection);
                numbers.ByName.Add(collection, number);
            }
            numbers.Last = legacy.Collection.ToArray();
            numbers.LastNumber = number;
        }
        var numbered = CollectionNames.NameOf(number);
        ReadOnlySpan<byte> body = legacy.Body;
        var form = legacy.BodyFlags;
        if (form == Document.CompressedPrefixMagiclessFlag && BareFrame.TryStripCopy(body, ref numbers.Frame, out var bareLength))
        {
            body = numbers.Frame.AsSpan(0, bareLength);
            form = Document.CompressedBareFlags;
        }
        var headerLength = Document.HeaderLength(legacy.Etag, legacy.LastModified, key, legacy.Id, number, legacy.Collection, numbered, form, legacy.DictionaryVersion, legacy.RawLength);
        var record = new byte[headerLength + body.Length];
        Document.WriteHeader(record, legacy.Etag, legacy.LastModified, key, legacy.Id, number, legacy.Collection, numbered, form, legacy.DictionaryVersion, legacy.RawLength, legacy.Compacted);
        body.CopyTo(record.AsSpan(headerLength));
        return record;
    }

    /// <summary>The collection numbers a move has looked up, by name, and the last one; and its buffer for frames made bare.</summary>
    private sealed class MovedNumbers
    {
        /// <summary>A buffer for frames made bare, reused across records.</summary>
        public byte[] Frame = [];

        public Dictionary<string, uint> ByName { get; } = new(StringComparer.Ordinal);

        public byte[]? Last { get; set; }

        public uint LastNumber { get; set; }
    }
}
