using System.Buffers;
using System.Text.Json;

namespace Folio.Import;

/// <summary>
/// Cuts one input file into documents as it is read: either newline-delimited JSON (one object per
/// line, blank lines skipped) or one JSON array of objects, told apart by the first non-blank byte.
/// </summary>
public sealed class DocumentSplitter
{
    private readonly string _name;
    private readonly CommandWriter _writer;
    private readonly ImportProgress _progress;
    private Format _format;
    private JsonReaderState _arrayState;
    private bool _arrayEnded;
    private long _line = 1;
    private long _index;
    private byte[] _scratch = [];

    /// <summary>Creates a splitter for the file <paramref name="name"/>.</summary>
    /// <param name="name">The file's name, for error messages.</param>
    /// <param name="writer">Receives each document.</param>
    /// <param name="progress">Counts documents.</param>
    public DocumentSplitter(string name, CommandWriter writer, ImportProgress progress)
    {
        _name = name;
        _writer = writer;
        _progress = progress;
        _arrayState = new JsonReaderState(new JsonReaderOptions { MaxDepth = 256 });
    }

    private enum Format
    {
        Unknown,
        Lines,
        Array,
    }

    /// <summary>Hands every whole document in <paramref name="buffer"/> to the writer.</summary>
    /// <param name="buffer">The file's unread bytes.</param>
    /// <param name="isFinal">Whether the file ends after <paramref name="buffer"/>.</param>
    /// <returns>How far the file is used up.</returns>
    /// <exception cref="ImportException">The file is not newline-delimited JSON or a JSON array of objects.</exception>
    public SequencePosition Split(ReadOnlySequence<byte> buffer, bool isFinal)
    {
        if (_format == Format.Unknown)
        {
            var reader = new SequenceReader<byte>(buffer);
            reader.AdvancePastAny((byte)' ', (byte)'\t', (byte)'\r', (byte)'\n');
            if (!reader.TryPeek(out byte first))
            {
                if (isFinal)
                    _format = Format.Lines;
                return buffer.Start;
            }

            _format = first == (byte)'[' ? Format.Array : Format.Lines;
        }

        return _format == Format.Lines ? SplitLines(buffer, isFinal) : SplitArray(buffer, isFinal);
    }

    private SequencePosition SplitLines(ReadOnlySequence<byte> buffer, bool isFinal)
    {
        var reader = new SequenceReader<byte>(buffer);
        while (true)
        {
            SequencePosition lineStart = reader.Position;
            ReadOnlySequence<byte> line;
            if (!reader.TryReadTo(out line, (byte)'\n'))
            {
                if (!isFinal || reader.Remaining == 0)
                    return lineStart;
                line = reader.UnreadSequence;
                reader.AdvanceToEnd();
            }

            WriteLine(line);
            _line++;
        }
    }

    private void WriteLine(ReadOnlySequence<byte> line)
    {
        ReadOnlySpan<byte> span = Contiguous(line);
        span = span.Trim(" \t\r"u8);
        if (span.IsEmpty)
            return;
        _writer.Write(span, $"{_name} line {_line}");
        _progress.AddDocument();
    }

    private SequencePosition SplitArray(ReadOnlySequence<byte> buffer, bool isFinal)
    {
        var reader = new Utf8JsonReader(buffer, isFinal, _arrayState);
        SequencePosition consumed = buffer.Start;
        JsonReaderState consumedState = _arrayState;
        try
        {
            while (reader.Read())
            {
                if (reader.CurrentDepth == 0)
                {
                    if (reader.TokenType == JsonTokenType.StartArray)
                        continue;
                    if (reader.TokenType == JsonTokenType.EndArray)
                    {
                        _arrayEnded = true;
                        consumed = reader.Position;
                        consumedState = reader.CurrentState;
                        continue;
                    }

                    throw new ImportException($"{_name}: the file must be newline-delimited JSON or one JSON array of documents.");
                }

                if (reader.TokenType != JsonTokenType.StartObject)
                    throw new ImportException($"{_name} element {_index}: a document must be a JSON object.");
                long start = reader.TokenStartIndex;
                // An element cut by the read is taken up again from its start once more of the file is in.
                if (!reader.TrySkip())
                    break;
                _writer.Write(Contiguous(buffer.Slice(start, reader.BytesConsumed - start)), $"{_name} element {_index}");
                _progress.AddDocument();
                _index++;
                consumed = reader.Position;
                consumedState = reader.CurrentState;
            }
        }
        catch (JsonException e)
        {
            throw new ImportException($"{_name} element {_index}: not valid JSON: {e.Message}", e);
        }

        if (isFinal && !_arrayEnded)
            throw new ImportException($"{_name}: the JSON array is not closed.");
        _arrayState = consumedState;
        return consumed;
    }

    private ReadOnlySpan<byte> Contiguous(ReadOnlySequence<byte> bytes)
    {
        if (bytes.IsSingleSegment)
            return bytes.FirstSpan;
        if (_scratch.Length < bytes.Length)
            _scratch = new byte[Math.Max(bytes.Length, _scratch.Length * 2)];
        bytes.CopyTo(_scratch);
        return _scratch.AsSpan(0, (int)bytes.Length);
    }
}
