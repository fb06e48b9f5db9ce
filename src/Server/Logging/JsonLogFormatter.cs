using System.Globalization;
using Serilog.Events;
using Serilog.Formatting;
using Serilog.Formatting.Json;

namespace Folio.Server.Logging;

/// <summary>
/// Writes a log event as one line of JSON in the shape of Serilog's <c>JsonFormatter</c> with the message
/// rendered (<c>Timestamp</c>, <c>Level</c>, <c>MessageTemplate</c>, <c>RenderedMessage</c>, <c>TraceId</c>,
/// <c>SpanId</c>, <c>Exception</c>, <c>Properties</c>; not its <c>Renderings</c>, which only templates with
/// format strings have), without its garbage: that formatter groups the
/// template's tokens with LINQ and formats the timestamp and numbers into new strings for every event,
/// about a kilobyte per request line. Scalars are written from stack buffers; structures and sequences
/// go to Serilog's <see cref="JsonValueFormatter"/>. One instance per sink: it reuses a buffer and is not
/// thread-safe (the file sink calls it under its lock).
/// </summary>
internal sealed class JsonLogFormatter : ITextFormatter
{
    private readonly JsonValueFormatter _values = new(typeTagName: "$type");
    private readonly StringWriter _message = new(CultureInfo.InvariantCulture);

    /// <inheritdoc/>
    public void Format(LogEvent logEvent, TextWriter output)
    {
        Span<char> buffer = stackalloc char[64];
        output.Write("{\"Timestamp\":\"");
        logEvent.Timestamp.TryFormat(buffer, out var written, "o", CultureInfo.InvariantCulture);
        output.Write(buffer[..written]);
        output.Write("\",\"Level\":\"");
        output.Write(LevelName(logEvent.Level));
        output.Write("\",\"MessageTemplate\":");
        WriteString(logEvent.MessageTemplate.Text, output);
        output.Write(",\"RenderedMessage\":");
        var message = _message.GetStringBuilder();
        message.Clear();
        logEvent.MessageTemplate.Render(logEvent.Properties, _message, CultureInfo.InvariantCulture);
        output.Write('"');
        foreach (var chunk in message.GetChunks())
            WriteEscaped(chunk.Span, output);
        output.Write('"');
        if (logEvent.TraceId is { } traceId)
        {
            output.Write(",\"TraceId\":\"");
            output.Write(traceId.ToHexString());
            output.Write('"');
        }
        if (logEvent.SpanId is { } spanId)
        {
            output.Write(",\"SpanId\":\"");
            output.Write(spanId.ToHexString());
            output.Write('"');
        }
        if (logEvent.Exception is { } exception)
        {
            output.Write(",\"Exception\":");
            WriteString(exception.ToString(), output);
        }
        if (logEvent.Properties.Count > 0)
        {
            output.Write(",\"Properties\":{");
            var first = true;
            foreach (var (name, value) in logEvent.Properties)
            {
                if (!first)
                    output.Write(',');
                first = false;
                WriteString(name, output);
                output.Write(':');
                WriteValue(value, output, buffer);
            }
            output.Write('}');
        }
        output.Write('}');
        output.Write('\n');
    }

    private void WriteValue(LogEventPropertyValue value, TextWriter output, Span<char> buffer)
    {
        if (value is not ScalarValue scalar)
        {
            _values.Format(value, output);
            return;
        }
        switch (scalar.Value)
        {
            case null:
                output.Write("null");
                break;
            case string text:
                WriteString(text, output);
                break;
            case bool flag:
                output.Write(flag ? "true" : "false");
                break;
            case int number when number.TryFormat(buffer, out var length, default, CultureInfo.InvariantCulture):
                output.Write(buffer[..length]);
                break;
            case long number when number.TryFormat(buffer, out var length, default, CultureInfo.InvariantCulture):
                output.Write(buffer[..length]);
                break;
            case double number when double.IsFinite(number) && number.TryFormat(buffer, out var length, "R", CultureInfo.InvariantCulture):
                output.Write(buffer[..length]);
                break;
            default:
                _values.Format(value, output);
                break;
        }
    }

    private static void WriteString(string text, TextWriter output)
    {
        output.Write('"');
        WriteEscaped(text, output);
        output.Write('"');
    }

    /// <summary>Writes text as the inside of a JSON string: quotes, backslashes and control characters escaped.</summary>
    private static void WriteEscaped(ReadOnlySpan<char> text, TextWriter output)
    {
        var start = 0;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (c >= ' ' && c != '"' && c != '\\')
                continue;
            output.Write(text[start..i]);
            switch (c)
            {
                case '"':
                    output.Write("\\\"");
                    break;
                case '\\':
                    output.Write("\\\\");
                    break;
                case '\n':
                    output.Write("\\n");
                    break;
                case '\r':
                    output.Write("\\r");
                    break;
                case '\t':
                    output.Write("\\t");
                    break;
                default:
                    output.Write("\\u");
                    output.Write(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    break;
            }
            start = i + 1;
        }
        output.Write(text[start..]);
    }

    private static string LevelName(LogEventLevel level) => level switch
    {
        LogEventLevel.Verbose => "Verbose",
        LogEventLevel.Debug => "Debug",
        LogEventLevel.Information => "Information",
        LogEventLevel.Warning => "Warning",
        LogEventLevel.Error => "Error",
        LogEventLevel.Fatal => "Fatal",
        _ => level.ToString(),
    };
}
