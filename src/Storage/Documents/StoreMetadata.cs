using System.Buffers;
using System.Buffers.Text;
using System.Text.Json;

namespace Folio.Storage.Documents;

/// <summary>
/// Writes the metadata properties the store owns, <c>"@collection":…,"@id":…,"@change-vector":…,"@last-modified":…}</c>
/// (the metadata object without its opening brace), from what a record's header holds. The writer appends them to
/// a body as it stores it; a body compressed without them (<see cref="Document.CompressedPrefixFlag"/>) gets the same
/// bytes back from here when it is read, so both forms read identically.
/// </summary>
internal sealed class StoreMetadata
{
    [ThreadStatic]
    private static StoreMetadata? t_forReads;

    private static readonly SearchValues<byte> Plain = SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.:@ |,#"u8);

    private readonly ArrayBufferWriter<byte> _buffer = new(512);
    private readonly Utf8JsonWriter _writer;
    private byte[] _copy = new byte[256];

    private static ReadOnlySpan<byte> CollectionName => "\"@collection\":\""u8;

    private static ReadOnlySpan<byte> IdName => "\",\"@id\":\""u8;

    private static ReadOnlySpan<byte> ChangeVectorName => "\",\"@change-vector\":\""u8;

    private static ReadOnlySpan<byte> LastModifiedName => "\",\"@last-modified\":\""u8;

    public StoreMetadata() => _writer = new Utf8JsonWriter(_buffer);

    /// <summary>The reading thread's instance (bodies are decoded synchronously, so it is never shared across an await).</summary>
    public static StoreMetadata ForThisThread => t_forReads ??= new StoreMetadata();

    /// <summary>The properties for a version; valid until this instance writes again.</summary>
    public ReadOnlySpan<byte> Write(ReadOnlySpan<byte> collection, ReadOnlySpan<byte> id, long etag, ReadOnlySpan<byte> databaseId, DateTime lastModified)
    {
        Span<byte> changeVector = stackalloc byte[ChangeVector.MaxLength + 8];
        changeVector = changeVector[..ChangeVector.Format(etag, databaseId, changeVector)];
        Span<byte> date = stackalloc byte[40];
        Utf8Formatter.TryFormat(lastModified, date, out var written, new StandardFormat('O'));
        date = date[..written];
        return NeedsNoEscaping(collection) && NeedsNoEscaping(id)
            ? Copy(collection, id, changeVector, date)
            : Escape(collection, id, changeVector, date);
    }

    /// <summary>
    /// Most ids and collection names are plain ASCII, which JSON writes as it is: then the properties are copied
    /// together, as every compressed read does this. Anything else goes through the JSON writer, which escapes
    /// it the way it did when plain bodies were stored.
    /// </summary>
    private ReadOnlySpan<byte> Copy(scoped ReadOnlySpan<byte> collection, scoped ReadOnlySpan<byte> id, scoped ReadOnlySpan<byte> changeVector, scoped ReadOnlySpan<byte> date)
    {
        var length = CollectionName.Length + collection.Length + IdName.Length + id.Length + ChangeVectorName.Length + changeVector.Length + LastModifiedName.Length + date.Length + 2;
        if (_copy.Length < length)
            _copy = new byte[Math.Max(length, _copy.Length * 2)];
        var output = _copy.AsSpan();
        var at = Append(output, 0, CollectionName);
        at = Append(output, at, collection);
        at = Append(output, at, IdName);
        at = Append(output, at, id);
        at = Append(output, at, ChangeVectorName);
        at = Append(output, at, changeVector);
        at = Append(output, at, LastModifiedName);
        at = Append(output, at, date);
        output[at++] = (byte)'"';
        output[at++] = (byte)'}';
        return output[..at];
    }

    private ReadOnlySpan<byte> Escape(scoped ReadOnlySpan<byte> collection, scoped ReadOnlySpan<byte> id, scoped ReadOnlySpan<byte> changeVector, scoped ReadOnlySpan<byte> date)
    {
        _buffer.ResetWrittenCount();
        var writer = _writer;
        writer.Reset(_buffer);
        writer.WriteStartObject();
        writer.WriteString("@collection"u8, collection);
        writer.WriteString("@id"u8, id);
        writer.WriteString("@change-vector"u8, changeVector);
        writer.WriteString("@last-modified"u8, date);
        writer.WriteEndObject();
        writer.Flush();
        return _buffer.WrittenSpan[1..];
    }

    private static int Append(Span<byte> output, int at, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(output[at..]);
        return at + bytes.Length;
    }

    /// <summary>Whether every byte is one that the JSON writer's default encoder leaves as it is (a conservative set).</summary>
    private static bool NeedsNoEscaping(ReadOnlySpan<byte> text) => !text.ContainsAnyExcept(Plain);

    /// <summary>
    /// Completes a body decompressed without the store's metadata in <paramref name="target"/> (the whole JSON's
    /// length): a comma after the client's own metadata properties (the prefix then ends with one of them, not with
    /// the metadata's opening brace), the store's properties, and the document's closing brace. Returns the JSON's
    /// length, which differs from the target's when the record is damaged (and then nothing is written).
    /// </summary>
    public static int Complete(Document stored, ReadOnlySpan<byte> databaseId, Span<byte> target, int prefixLength)
    {
        var properties = ForThisThread.Write(stored.Collection, stored.Id, stored.Etag, databaseId, stored.LastModified);
        var comma = prefixLength > 0 && target[prefixLength - 1] != (byte)'{' ? 1 : 0;
        var length = prefixLength + comma + properties.Length + 1;
        if (length != target.Length)
            return length;
        if (comma == 1)
            target[prefixLength] = (byte)',';
        properties.CopyTo(target[(prefixLength + comma)..]);
        target[^1] = (byte)'}';
        return length;
    }

    /// <summary>
    /// The length of <paramref name="json"/> before the store's metadata, as a body compressed with
    /// <see cref="Document.CompressedPrefixFlag"/> holds it; -1 when the JSON does not end with the metadata its
    /// header gives (then it is kept whole).
    /// </summary>
    public static int PrefixLength(Document stored, ReadOnlySpan<byte> databaseId, ReadOnlySpan<byte> json)
    {
        var properties = ForThisThread.Write(stored.Collection, stored.Id, stored.Etag, databaseId, stored.LastModified);
        var end = json.Length - 1 - properties.Length;
        if (end < 1 || json[^1] != (byte)'}' || !json[end..^1].SequenceEqual(properties))
            return -1;
        return json[end - 1] switch
        {
            (byte)'{' => end,
            (byte)',' => end - 1,
            _ => -1,
        };
    }
}
