using System.Text.Json;
using Folio.Server.Logging;
using Serilog.Events;
using Serilog.Parsing;

namespace Folio.Server.Tests.Logging;

public class JsonLogFormatterTests
{
    private static JsonElement Format(LogEvent logEvent)
    {
        using var output = new StringWriter();
        new JsonLogFormatter().Format(logEvent, output);
        var text = output.ToString();
        Assert.EndsWith("\n", text, StringComparison.Ordinal);
        Assert.Single(text.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    private static LogEvent Event(string template, Exception? exception, params LogEventProperty[] properties) =>
        new(new DateTimeOffset(2026, 11, 22, 15, 4, 5, 678, TimeSpan.FromHours(1)), LogEventLevel.Warning, exception, new MessageTemplateParser().Parse(template), properties);

    [Fact]
    public void Format_WritesEveryScalarKindAndTheRenderedMessage_AsOneJsonLine()
    {
        var logEvent = Event(
            "HTTP {Method} {Path} responded {StatusCode} in {ElapsedMs} ms",
            null,
            new LogEventProperty("Method", new ScalarValue("GET")),
            new LogEventProperty("Path", new ScalarValue("/a\"b\\c\u0001\n\u00e9\U0001F600")),
            new LogEventProperty("StatusCode", new ScalarValue(404)),
            new LogEventProperty("ElapsedMs", new ScalarValue(0.125)),
            new LogEventProperty("Big", new ScalarValue(long.MaxValue)),
            new LogEventProperty("NotANumber", new ScalarValue(double.NaN)),
            new LogEventProperty("Flag", new ScalarValue(true)),
            new LogEventProperty("Nothing", new ScalarValue(null)),
            new LogEventProperty("When", new ScalarValue(TimeSpan.FromSeconds(7))));
        var json = Format(logEvent);

        Assert.Equal("2026-11-22T15:04:05.6780000+01:00", json.GetProperty("Timestamp").GetString());
        Assert.Equal("Warning", json.GetProperty("Level").GetString());
        Assert.Equal("HTTP {Method} {Path} responded {StatusCode} in {ElapsedMs} ms", json.GetProperty("MessageTemplate").GetString());
        Assert.Equal(logEvent.RenderMessage(System.Globalization.CultureInfo.InvariantCulture), json.GetProperty("RenderedMessage").GetString());
        Assert.StartsWith("HTTP \"GET\" \"/a", json.GetProperty("RenderedMessage").GetString(), StringComparison.Ordinal);
        var properties = json.GetProperty("Properties");
        Assert.Equal("/a\"b\\c\u0001\n\u00e9\U0001F600", properties.GetProperty("Path").GetString());
        Assert.Equal(404, properties.GetProperty("StatusCode").GetInt32());
        Assert.Equal(0.125, properties.GetProperty("ElapsedMs").GetDouble());
        Assert.Equal(long.MaxValue, properties.GetProperty("Big").GetInt64());
        Assert.Equal("NaN", properties.GetProperty("NotANumber").GetString());
        Assert.True(properties.GetProperty("Flag").GetBoolean());
        Assert.Equal(JsonValueKind.Null, properties.GetProperty("Nothing").ValueKind);
        Assert.Equal("00:00:07", properties.GetProperty("When").GetString());
        Assert.False(json.TryGetProperty("Exception", out _));
    }

    [Fact]
    public void Format_WritesStructuresSequencesAndTheException_WhenPresent()
    {
        Exception exception;
        try
        {
            throw new InvalidOperationException("broken \"thing\"");
        }
        catch (InvalidOperationException caught)
        {
            exception = caught;
        }

        var json = Format(Event(
            "Failed {Id}",
            exception,
            new LogEventProperty("Id", new ScalarValue(3)),
            new LogEventProperty("EventId", new StructureValue([new LogEventProperty("Id", new ScalarValue(1001)), new LogEventProperty("Name", new ScalarValue("Failed"))])),
            new LogEventProperty("Tags", new SequenceValue([new ScalarValue("a"), new ScalarValue(2)]))));

        Assert.StartsWith("System.InvalidOperationException: broken \"thing\"", json.GetProperty("Exception").GetString(), StringComparison.Ordinal);
        var properties = json.GetProperty("Properties");
        Assert.Equal(1001, properties.GetProperty("EventId").GetProperty("Id").GetInt32());
        Assert.Equal("Failed", properties.GetProperty("EventId").GetProperty("Name").GetString());
        Assert.Equal("[\"a\",2]", properties.GetProperty("Tags").GetRawText());
        Assert.Equal("Failed 3", json.GetProperty("RenderedMessage").GetString());
    }

    [Fact]
    public void Format_OmitsProperties_WhenTheEventHasNone()
    {
        var json = Format(Event("Folio stopped", null));
        Assert.Equal("Folio stopped", json.GetProperty("RenderedMessage").GetString());
        Assert.False(json.TryGetProperty("Properties", out _));
    }
}
