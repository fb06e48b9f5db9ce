using System.Buffers;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Wire;
using Folio.Storage.Documents;

namespace Folio.Server.BulkInsert;

/// <summary>
/// Reads a bulk insert body, <c>[{"Type":"PUT","Id":"…","Document":{…}},…]</c>, a piece at a time as it
/// arrives. The JSON reader's state and the command being read survive between pieces, so a command
/// split across reads is neither lost nor re-scanned, and the only bytes kept between reads are those
/// of the one document being read (everything before it has already become a command).
/// </summary>
public sealed class BulkInsertParser : IDisposable
{
    // The array and the command object sit above the document's own nesting.
    private const int EnvelopeDepth = 2;

    // The window's first size: a few hundred 1 KB commands per copy out of the pipe.
    private const int WindowBytes = 512 * 1024;

    // Less free room than this and the window grows before copying (only a huge command fills it).
    private const int MinFreeBytes = 64 * 1024;

    // Room for a command's envelope (type, id, unknown small fields) around its document.
    private const long CommandMarginBytes = 1024 * 1024;

    private readonly int _maxDepth;
    private readonly long _maxDocumentBytes;
    private readonly JsonReaderOptions _readerOptions;
    private JsonReaderState _state;
    private Phase _phase;
    private byte[] _window = ArrayPool<byte>.Shared.Rent(WindowBytes);
    private int _length;
    private long _bufferStart;
    private int _scanned;
    private int _documentStart;
    private long _commandStart;
    private int _nestedDepth;
    private int[] _propertyBounds = new int[64];
    private int _propertyBoundCount;
    private int _propertyStart;
    private bool _documentHasMetadata;
    private bool _sawType;
    private string? _id;
    private PreparedDocument? _document;
    private long _commandIndex;
    private long _lastCommandEnd;

    /// <summary>Creates a parser for one body.</summary>
    /// <param name="maxDepth">Deepest nesting allowed inside one document.</param>
    /// <param name="maxDocumentBytes">Largest document allowed.</param>
    public BulkInsertParser(int maxDepth, long maxDocumentBytes)
    {
        _maxDepth = maxDepth;
        _maxDocumentBytes = maxDocumentBytes;
        _readerOptions = new JsonReaderOptions { MaxDepth = maxDepth + EnvelopeDepth, CommentHandling = JsonCommentHandling.Disallow };
        _state = new JsonReaderState(_readerOptions);
    }

    private enum Phase
    {
        ExpectArray,
        ExpectCommand,
        ExpectProperty,
        ExpectType,
        ExpectId,
        ExpectChangeVector,
        ExpectDocument,
        InDocument,
        ExpectSkippedValue,
        InSkippedValue,
        Done,
    }

    /// <summary>Commands read whole so far.</summary>
    public long Commands => _commandIndex;

    /// <summary>Bytes of the body the reader has gone through so far.</summary>
    public long BytesRead => _bufferStart + _scanned;

    /// <summary>Offset in the body just past the last command read whole.</summary>
    public long LastCommandEnd => _lastCommandEnd;

    /// <summary>Whether the closing <c>]</c> has been read.</summary>
    public bool SawEnd => _phase == Phase.Done;

    /// <summary>
    /// Whether the array's closing bracket completes the body without waiting for its end: the seeds' system's
    /// clients never end their request stream and wait for the answer once they have sent the bracket.
    /// </summary>
    public bool CompleteAtArrayEnd { get; init; }

    /// <summary>
    /// Copies what it can of <paramref name="buffer"/> into the parser's window and turns the commands
    /// there into <paramref name="batch"/> entries until the data runs out, the batch is full or the body
    /// is complete.
    /// </summary>
    /// <param name="buffer">What the pipe holds: it starts where the last call's <paramref name="consumed"/> pointed.</param>
    /// <param name="isFinalBlock">Whether the body has ended (nothing follows <paramref name="buffer"/>).</param>
    /// <param name="batch">Receives the commands.</param>
    /// <param name="batchBytes">The batch's document bytes; grows with each command.</param>
    /// <param name="maxCommands">Stop once the batch holds this many commands.</param>
    /// <param name="maxBytes">Stop once the batch holds this many document bytes.</param>
    /// <param name="consumed">What the pipe may release: everything copied into the window.</param>
    /// <param name="examined">How far the parser looked; the pipe waits for more only past it.</param>
    /// <returns>Why it stopped.</returns>
    /// <exception cref="BulkInsertCommandException">A command is malformed, invalid or too large, or the body ended inside the array.</exception>
    public BulkInsertParseStatus Parse(
        ReadOnlySequence<byte> buffer,
        bool isFinalBlock,
        List<DocumentCommand> batch,
        ref long batchBytes,
        int maxCommands,
        long maxBytes,
        out SequencePosition consumed,
        out SequencePosition examined)
    {
        // The pipe is emptied into a window the parser owns: Kestrel stops reading the socket once about
        // 1 MB sits unconsumed in the request pipe, so a document (or string) larger than that could never
        // complete if its start had to stay in the pipe. The window also gives the JSON reader one span.
        if (buffer.Length > 0 && _window.Length - _length < MinFreeBytes)
            GrowWindow();
        int take = (int)Math.Min(buffer.Length, _window.Length - _length);
        buffer.Slice(0, take).CopyTo(_window.AsSpan(_length));
        _length += take;
        bool final = isFinalBlock && take == buffer.Length;

        var reader = new Utf8JsonReader(_window.AsSpan(_scanned, _length - _scanned), final, _state);
        BulkInsertParseStatus status = BulkInsertParseStatus.NeedMoreData;
        try
        {
            while (reader.Read())
            {
                if (!Step(ref reader))
                    continue;
                batch.Add(new DocumentCommand(DocumentCommandType.Put, _id!, _document!, null));
                batchBytes += _document!.Length;
                _document = null;
                _id = null;
                _commandIndex++;
                _lastCommandEnd = _bufferStart + _scanned + reader.BytesConsumed;
                if (batch.Count >= maxCommands || batchBytes >= maxBytes)
                {
                    status = BulkInsertParseStatus.BatchFull;
                    break;
                }
            }
        }
        catch (JsonException e)
        {
            throw Malformed(_bufferStart + _scanned + reader.BytesConsumed, e);
        }

        _scanned += (int)reader.BytesConsumed;
        _state = reader.CurrentState;
        if (status == BulkInsertParseStatus.NeedMoreData && CompleteAtArrayEnd && _phase == Phase.Done)
            status = BulkInsertParseStatus.Completed;
        else if (status == BulkInsertParseStatus.NeedMoreData && final)
        {
            if (_phase != Phase.Done)
                throw Truncated();
            status = BulkInsertParseStatus.Completed;
        }

        consumed = buffer.GetPosition(take);
        examined = status == BulkInsertParseStatus.NeedMoreData && take == buffer.Length ? buffer.End : consumed;

        // Only the open document's bytes (or a token cut by the read) are still needed; move them to the front.
        int keep = _phase == Phase.InDocument ? _documentStart : _scanned;
        if (keep > 0)
        {
            _window.AsSpan(keep, _length - keep).CopyTo(_window);
            _length -= keep;
            _scanned -= keep;
            _documentStart -= keep;
            _bufferStart += keep;
        }

        if (status == BulkInsertParseStatus.NeedMoreData && _length > _maxDocumentBytes + CommandMarginBytes)
            throw TooLarge(_length);
        return status;
    }

    /// <summary>Returns the window to the pool.</summary>
    public void Dispose()
    {
        byte[] window = _window;
        _window = [];
        if (window.Length > 0)
            ArrayPool<byte>.Shared.Return(window);
    }

    private void GrowWindow()
    {
        // Only a command larger than the window gets here; past the document limit it is refused instead.
        if (_length > _maxDocumentBytes + CommandMarginBytes)
            throw TooLarge(_length);
        byte[] larger = ArrayPool<byte>.Shared.Rent((int)Math.Min((long)_window.Length * 2, Array.MaxLength));
        _window.AsSpan(0, _length).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_window);
        _window = larger;
    }

    /// <summary>Advances the state machine by one token; true when the token closed a command.</summary>
    private bool Step(ref Utf8JsonReader reader)
    {
        switch (_phase)
        {
            case Phase.ExpectArray:
                if (reader.TokenType != JsonTokenType.StartArray)
                    throw Invalid("The body must be a JSON array of commands: [{\"Type\":\"PUT\",\"Id\":…,\"Document\":{…}},…].", _bufferStart + _scanned + reader.TokenStartIndex);
                _phase = Phase.ExpectCommand;
                return false;

            case Phase.ExpectCommand:
                if (reader.TokenType == JsonTokenType.EndArray)
                {
                    _phase = Phase.Done;
                    return false;
                }

                _commandStart = _bufferStart + _scanned + reader.TokenStartIndex;
                if (reader.TokenType != JsonTokenType.StartObject)
                    throw Invalid($"Command {_commandIndex} (at byte {_commandStart}) must be a JSON object.");
                _sawType = false;
                _id = null;
                _document = null;
                _phase = Phase.ExpectProperty;
                return false;

            case Phase.ExpectProperty:
                if (reader.TokenType == JsonTokenType.EndObject)
                {
                    CompleteCommand();
                    return true;
                }

                _phase = CommandShape.Property(ref reader) switch
                {
                    CommandProperty.Type => Phase.ExpectType,
                    CommandProperty.Id => Phase.ExpectId,
                    CommandProperty.Document => Phase.ExpectDocument,
                    CommandProperty.ChangeVector => Phase.ExpectChangeVector,
                    _ => Phase.ExpectSkippedValue,
                };
                return false;

            case Phase.ExpectType:
                ReadType(ref reader);
                _phase = Phase.ExpectProperty;
                return false;

            case Phase.ExpectId:
                ReadId(ref reader);
                _phase = Phase.ExpectProperty;
                return false;

            case Phase.ExpectChangeVector:
                // Bulk insert overwrites; silently ignoring an expected change vector would drop a check the client asked for.
                if (reader.TokenType != JsonTokenType.Null)
                    throw Invalid($"Command {_commandIndex} (at byte {_commandStart}): bulk_insert does not check change vectors; use bulk_docs for conditional writes.");
                _phase = Phase.ExpectProperty;
                return false;

            case Phase.ExpectDocument:
                if (reader.TokenType != JsonTokenType.StartObject)
                    throw Invalid($"Command {_commandIndex} (at byte {_commandStart}): \"Document\" must be a JSON object.");
                _documentStart = _scanned + (int)reader.TokenStartIndex;
                _nestedDepth = reader.CurrentDepth;
                _propertyBoundCount = 0;
                _documentHasMetadata = false;
                _phase = Phase.InDocument;
                return false;

            case Phase.InDocument:
                if (reader.CurrentDepth == _nestedDepth + 1)
                {
                    // The document's own properties: their bounds (relative to the document, which the window
                    // may move) let PreparedDocument lay it out without reading its tokens a second time.
                    int offset = _scanned - _documentStart;
                    switch (reader.TokenType)
                    {
                        case JsonTokenType.PropertyName:
                            _propertyStart = offset + (int)reader.TokenStartIndex;
                            _documentHasMetadata |= reader.ValueTextEquals("@metadata"u8);
                            break;
                        case JsonTokenType.StartObject or JsonTokenType.StartArray:
                            break;
                        default:
                            AddPropertyBounds(_propertyStart, offset + (int)reader.BytesConsumed);
                            break;
                    }
                }
                else if (reader.TokenType == JsonTokenType.EndObject && reader.CurrentDepth == _nestedDepth)
                {
                    PrepareDocument(_scanned + (int)reader.BytesConsumed);
                    _phase = Phase.ExpectProperty;
                }

                return false;

            case Phase.ExpectSkippedValue:
                // Clients may send fields Folio does not use; they do not change what the command does.
                if (reader.TokenType is JsonTokenType.StartObject or JsonTokenType.StartArray)
                {
                    _nestedDepth = reader.CurrentDepth;
                    _phase = Phase.InSkippedValue;
                }
                else
                {
                    _phase = Phase.ExpectProperty;
                }

                return false;

            case Phase.InSkippedValue:
                if (reader.TokenType is JsonTokenType.EndObject or JsonTokenType.EndArray && reader.CurrentDepth == _nestedDepth)
                    _phase = Phase.ExpectProperty;
                return false;

            default:
                // The reader itself refuses anything after the root array.
                return false;
        }
    }

    private void ReadType(ref Utf8JsonReader reader)
    {
        if (CommandShape.Type(ref reader) == CommandType.Put)
        {
            _sawType = true;
            return;
        }

        string? type = reader.TokenType == JsonTokenType.String ? SafeString(ref reader) : null;

        throw Invalid(type is null
            ? $"Command {_commandIndex} (at byte {_commandStart}): \"Type\" must be \"PUT\"."
            : $"Command {_commandIndex} (at byte {_commandStart}): bulk_insert takes only PUT commands; this one is \"{type}\" (use bulk_docs for deletes).");
    }

    private void ReadId(ref Utf8JsonReader reader)
    {
        if (reader.TokenType != JsonTokenType.String)
            throw Invalid($"Command {_commandIndex} (at byte {_commandStart}): \"Id\" must be a string (end it with '/' for a server-made id).");
        string id = SafeString(ref reader) ?? throw Invalid($"Command {_commandIndex} (at byte {_commandStart}): \"Id\" is not valid UTF-8.");
        try
        {
            DocumentIds.Validate(id);
        }
        catch (DocumentValidationException e)
        {
            throw new BulkInsertCommandException(
                StatusCodes.Status400BadRequest,
                "Invalid document id",
                $"Command {_commandIndex} (at byte {_commandStart}): {e.Message}",
                ProblemTypes.InvalidDocumentId,
                _commandIndex,
                _commandStart,
                e);
        }

        _id = id;
    }

    private static string? SafeString(ref Utf8JsonReader reader)
    {
        try
        {
            return reader.GetString();
        }
        catch (InvalidOperationException)
        {
            // GetString refuses invalid UTF-8 this way.
            return null;
        }
    }

    private void AddPropertyBounds(int start, int end)
    {
        if (_propertyBoundCount + 2 > _propertyBounds.Length)
            Array.Resize(ref _propertyBounds, _propertyBounds.Length * 2);
        _propertyBounds[_propertyBoundCount++] = start;
        _propertyBounds[_propertyBoundCount++] = end;
    }

    private void PrepareDocument(int end)
    {
        int length = end - _documentStart;
        if (length > _maxDocumentBytes)
            throw TooLarge(length);
        ReadOnlySpan<byte> span = _window.AsSpan(_documentStart, length);
        try
        {
            // The client's metadata needs checking and filtering, which the full parse does.
            _document = _documentHasMetadata
                ? PreparedDocument.Parse(span, _maxDepth)
                : PreparedDocument.FromProperties(span, _propertyBounds.AsSpan(0, _propertyBoundCount));
        }
        catch (DocumentValidationException e)
        {
            throw new BulkInsertCommandException(
                StatusCodes.Status400BadRequest,
                "Invalid document",
                $"Command {_commandIndex} (at byte {_commandStart}){IdPart()}: {e.Message}",
                ProblemTypes.InvalidDocument,
                _commandIndex,
                _commandStart,
                e);
        }
    }

    private void CompleteCommand()
    {
        if (!_sawType)
            throw Invalid($"Command {_commandIndex} (at byte {_commandStart}){IdPart()} has no \"Type\"; it must be \"PUT\".");
        if (_id is null)
            throw Invalid($"Command {_commandIndex} (at byte {_commandStart}) has no \"Id\" (end it with '/' for a server-made id).");
        if (_document is null)
            throw Invalid($"Command {_commandIndex} (at byte {_commandStart}){IdPart()} has no \"Document\".");
        _phase = Phase.ExpectCommand;
    }

    private string IdPart() => _id is null ? string.Empty : $" (PUT {_id})";

    private BulkInsertCommandException Malformed(long at, JsonException e)
    {
        bool inCommand = _phase is not (Phase.ExpectArray or Phase.ExpectCommand or Phase.Done);
        long start = inCommand ? _commandStart : at;
        string where = inCommand ? $"Command {_commandIndex} (at byte {_commandStart}) is malformed at or after byte {at}" : $"The body is malformed at or after byte {at}, before command {_commandIndex}";
        return new BulkInsertCommandException(
            StatusCodes.Status400BadRequest,
            "Malformed JSON",
            $"{where}: {e.Message}",
            ProblemTypes.MalformedJson,
            _commandIndex,
            start,
            e);
    }

    private BulkInsertCommandException Truncated()
    {
        bool inCommand = _phase is not (Phase.ExpectArray or Phase.ExpectCommand or Phase.Done);
        long at = _bufferStart + _scanned;
        string detail = _phase == Phase.ExpectArray
            ? "The body is empty; it must be a JSON array of commands."
            : inCommand
                ? $"The body ended at byte {at}, inside command {_commandIndex} (which starts at byte {_commandStart})."
                : $"The body ended at byte {at} before the array's closing ']' (after {_commandIndex} commands).";
        return new BulkInsertCommandException(
            StatusCodes.Status400BadRequest,
            "Truncated body",
            detail,
            ProblemTypes.MalformedJson,
            _commandIndex,
            inCommand ? _commandStart : at);
    }

    private BulkInsertCommandException TooLarge(long bytes)
    {
        string what = _phase == Phase.InDocument ? "its document is" : "it holds a value of";
        return new BulkInsertCommandException(
            StatusCodes.Status413PayloadTooLarge,
            "Document too large",
            $"Command {_commandIndex} (at byte {_commandStart}){IdPart()}: {what} at least {bytes} bytes; the document limit is {_maxDocumentBytes} bytes.",
            ProblemTypes.TooLarge,
            _commandIndex,
            _commandStart);
    }

    private BulkInsertCommandException Invalid(string detail) => Invalid(detail, _commandStart);

    private BulkInsertCommandException Invalid(string detail, long offset) =>
        new(StatusCodes.Status400BadRequest, "Invalid command", detail, ProblemTypes.BadRequest, _commandIndex, offset);
}
