using System.Text;
using System.Threading.Channels;
using Folio.Client.Exceptions;
using Folio.Client.Http;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.BulkInsert;

/// <summary>
/// Streams entities to the server's bulk insert endpoint in one chunked request: <see cref="StoreAsync(object, CancellationToken)"/>
/// serializes into a buffer, full buffers queue for the request body, and when the server reads slower than entities
/// come, the queue fills and <c>StoreAsync</c> waits (back pressure), so memory stays bounded. The server commits in
/// batches as they arrive. Dispose (asynchronously) to finish and wait until everything is stored.
/// Entities without an id get a HiLo id, set on the entity before <c>StoreAsync</c> returns.
/// </summary>
public sealed class BulkInsertOperation : IAsyncDisposable
{
    private const int ChunkBytes = 64 * 1024;
    private const int QueuedChunks = 4;

    private readonly DocumentStore _store;
    private readonly string _database;
    private readonly CancellationToken _cancellationToken;
    private readonly Channel<ReadOnlyMemory<byte>> _chunks = Channel.CreateBounded<ReadOnlyMemory<byte>>(new BoundedChannelOptions(QueuedChunks) { SingleReader = true, SingleWriter = true });
    private readonly MemoryStream _buffer = new(ChunkBytes * 2);
    private readonly StreamWriter _text;
    private readonly JsonTextWriter _json;
    private readonly StringWriter _entityText = new(System.Globalization.CultureInfo.InvariantCulture);
    private Task<JObject>? _request;
    private bool _first = true;
    private bool _finished;

    internal BulkInsertOperation(DocumentStore store, string database, CancellationToken cancellationToken)
    {
        _store = store;
        _database = database;
        _cancellationToken = cancellationToken;
        store.Initialize();
        _text = new StreamWriter(_buffer, new UTF8Encoding(false), 16 * 1024, leaveOpen: true);
        _json = new JsonTextWriter(_text) { Formatting = Formatting.None };
    }

    /// <summary>Documents handed to the operation so far.</summary>
    public long Count { get; private set; }

    /// <summary>What the server reported when the stream finished: documents, batches, last etag; null before.</summary>
    public BulkInsertResult? Result { get; private set; }

    /// <summary>Queues an entity to be stored under its id (a HiLo id when it has none).</summary>
    public async Task StoreAsync(object entity, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(entity);
        string collection = _store.Conventions.GetCollectionName(entity.GetType());
        string? id = _store.Conventions.GetId(entity);
        if (id is null)
        {
            id = await _store.HiLo.NextIdAsync(_database, collection, cancellationToken).ConfigureAwait(false);
            _store.Conventions.SetId(entity, id);
        }
        await StoreAsync(entity, id, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Queues an entity to be stored under <paramref name="id"/>, overwriting what is there.</summary>
    public async Task StoreAsync(object entity, string id, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ArgumentException.ThrowIfNullOrEmpty(id);
        ObjectDisposedException.ThrowIf(_finished, this);
        _request ??= SendAsync();


        if (_first)
        {
            _json.WriteStartArray();
            _first = false;
        }
        _json.WriteStartObject();
        _json.WritePropertyName("Type");
        _json.WriteValue("PUT");
        _json.WritePropertyName("Id");
        _json.WriteValue(id);
        _json.WritePropertyName("Document");
        _json.WriteRawValue(DocumentJson(entity));
        _json.WriteEndObject();
        Count++;
        await _json.FlushAsync(cancellationToken).ConfigureAwait(false);
        if (_buffer.Length >= ChunkBytes)
            await QueueBufferAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The entity's JSON with its collection in <c>@metadata</c> as the last property.</summary>
    private string DocumentJson(object entity)
    {
        _entityText.GetStringBuilder().Clear();
        using (var writer = new JsonTextWriter(_entityText) { Formatting = Formatting.None, CloseOutput = false })
            _store.Conventions.Serializer.Serialize(writer, entity);
        StringBuilder text = _entityText.GetStringBuilder();
        text.Length--; // the closing brace
        if (text.Length > 1)
            text.Append(',');
        text.Append("\"@metadata\":{\"@collection\":");
        text.Append(JsonConvert.ToString(_store.Conventions.GetCollectionName(entity.GetType())));
        text.Append("}}");
        return text.ToString();
    }

    /// <summary>Sends what is queued, closes the stream and waits until the server has stored it all; throws what the server refused.</summary>
    public async Task FinishAsync(CancellationToken cancellationToken = default)
    {
        if (_finished)
            return;
        _request ??= SendAsync();
        if (_first)
            _json.WriteStartArray();
        _json.WriteEndArray();
        await _json.FlushAsync(cancellationToken).ConfigureAwait(false);
        await QueueBufferAsync(cancellationToken).ConfigureAwait(false);
        _finished = true;
        _chunks.Writer.TryComplete();
        JObject answer = await _request.ConfigureAwait(false);
        Result = answer.ToObject<BulkInsertResult>();
    }

    private async Task QueueBufferAsync(CancellationToken cancellationToken)
    {
        ReadOnlyMemory<byte> chunk = _buffer.ToArray();
        _buffer.SetLength(0);
        try
        {
            await _chunks.Writer.WriteAsync(chunk, cancellationToken).ConfigureAwait(false);
        }
        catch (ChannelClosedException)
        {
            // The request ended early: the server refused a command. Its answer says why.
            await _request!.ConfigureAwait(false);
            throw new FolioException("The bulk insert request ended before the stream was finished.");
        }
    }

    private async Task<JObject> SendAsync()
    {
        string path = UrlBuilder.ForDatabase(_database, "bulk_insert").ToString();
        try
        {
            using HttpResponseMessage response = await _store.Executor.SendAsync(
                url => new HttpRequestMessage(HttpMethod.Post, new Uri(url, path)) { Content = new ChannelContent(_chunks.Reader) },
                null, _cancellationToken, HttpCompletionOption.ResponseContentRead).ConfigureAwait(false);
            return await RequestExecutor.ReadJsonAsync(response, _cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _chunks.Writer.TryComplete();
        }
    }

    /// <summary>Finishes the stream (see <see cref="FinishAsync"/>).</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            await FinishAsync(_cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            await _json.CloseAsync().ConfigureAwait(false);
            await _text.DisposeAsync().ConfigureAwait(false);
            await _buffer.DisposeAsync().ConfigureAwait(false);
        }
    }
}
