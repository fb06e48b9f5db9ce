using System.Globalization;
using System.Text.Json;
using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace Folio.Indexing.Scripting;

/// <summary>
/// Writes what a script returned, or the document it changed, as JSON the way <c>JSON.stringify</c> would:
/// functions and <c>undefined</c> properties are left out, <c>NaN</c> and infinities become null, dates their
/// ISO text; a cycle or nesting deeper than the document limit is a <see cref="ScriptException"/>, and so is a result
/// past a size in bytes (a result that shares one subtree many times over is small to build and huge to write).
/// Getters and proxies in the value run while it is written: callers that hold a sandbox write through
/// <see cref="ScriptSandbox.WriteJson"/>, which keeps them within the script's limits.
/// </summary>
public static class JsToJson
{
    private const double MinDateMilliseconds = -62_135_596_800_000d + 86_400_000d;
    private const double MaxDateMilliseconds = 253_402_300_799_999d - 86_400_000d;

    /// <summary>The longest string <see cref="Utf8JsonWriter"/> accepts, in characters.</summary>
    private const int MaxStringLength = 166_666_666;

    /// <summary>
    /// Writes <paramref name="value"/>, refusing it past <paramref name="maxBytes"/> bytes of JSON or
    /// <paramref name="maxValues"/> values (each read from the engine), and stopping with an
    /// <see cref="OperationCanceledException"/> when <paramref name="cancellation"/> is cancelled.
    /// </summary>
    public static void Write(Utf8JsonWriter writer, JsValue value, int maxDepth = 64, long maxBytes = long.MaxValue, CancellationToken cancellation = default, long maxValues = long.MaxValue)
    {
        ArgumentNullException.ThrowIfNull(writer);
        // The writer may already hold what came before (the other results of a page): only this value's bytes count.
        var limit = new Limit(maxDepth, writer.BytesCommitted + writer.BytesPending, maxBytes, maxValues, cancellation);
        WriteValue(writer, value, 0, ref limit);
    }

    /// <summary><paramref name="value"/> as UTF-8 JSON, refused past <paramref name="maxBytes"/> bytes or <paramref name="maxValues"/> values.</summary>
    public static byte[] ToUtf8(JsValue value, int maxDepth = 64, long maxBytes = long.MaxValue, long maxValues = long.MaxValue)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true }))
            Write(writer, value, maxDepth, maxBytes, maxValues: maxValues);
        return buffer.WrittenSpan.ToArray();
    }

    private struct Limit(int maxDepth, long start, long maxBytes, long maxValues, CancellationToken cancellation)
    {
        public readonly int MaxDepth = maxDepth;
        public readonly long Start = start;
        public readonly long MaxBytes = maxBytes;
        public readonly long MaxValues = maxValues;
        public readonly CancellationToken Cancellation = cancellation;
        public long Values;
    }

    private static void CheckSize(Utf8JsonWriter writer, in Limit limit, long adding)
    {
        if (writer.BytesCommitted + writer.BytesPending - limit.Start + adding > limit.MaxBytes)
            throw new ScriptException($"The script's result is larger than {limit.MaxBytes} bytes of JSON.", ScriptFailure.Result);
    }

    private static void WriteString(Utf8JsonWriter writer, string text, in Limit limit, bool propertyName = false)
    {
        // Each character is at least one byte; past the writer's own maximum it would throw an ArgumentException.
        CheckSize(writer, limit, text.Length);
        if (text.Length > MaxStringLength)
            throw new ScriptException($"The script's result holds a string of {text.Length} characters, more than {MaxStringLength}.", ScriptFailure.Result);
        if (propertyName)
            writer.WritePropertyName(text);
        else
            writer.WriteStringValue(text);
    }

    private static void WriteValue(Utf8JsonWriter writer, JsValue value, int depth, ref Limit limit)
    {
        if (depth > limit.MaxDepth)
            throw new ScriptException($"The script's result nests deeper than {limit.MaxDepth} levels (or refers to itself).", ScriptFailure.Result);
        CheckSize(writer, limit, 0);
        // Reading a value through the engine is what makes a large result slow to write, more than its bytes.
        if (++limit.Values > limit.MaxValues)
            throw new ScriptException($"The script's result is larger than {limit.MaxValues} values.", ScriptFailure.Result);
        if ((limit.Values & Collectors.MatchWalk.CancellationStride) == 0)
            limit.Cancellation.ThrowIfCancellationRequested();
        switch (value)
        {
            case JsString:
                WriteString(writer, value.ToString(), limit);
                return;
            case JsNumber:
                WriteNumber(writer, value.AsNumber());
                return;
            case JsBoolean:
                writer.WriteBooleanValue(value.AsBoolean());
                return;
            case JsDate date:
                // A JavaScript date may lie 275,000 years either side of 1970; .NET's end at years 1 and 9999 (a day
                // inside, so converting through local time stays in range), and past them the date is written as null.
                if (date.DateValue is >= MinDateMilliseconds and <= MaxDateMilliseconds)
                    writer.WriteStringValue(date.ToDateTime().ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture));
                else
                    writer.WriteNullValue();
                return;
            case JsArray array:
                writer.WriteStartArray();
                var length = array.Length;
                for (uint i = 0; i < length; i++)
                {
                    var item = array.Get(i);
                    if (item.IsUndefined() || item is Jint.Native.Function.Function)
                        writer.WriteNullValue();
                    else
                        WriteValue(writer, item, depth + 1, ref limit);
                }
                writer.WriteEndArray();
                return;
            case Jint.Native.Function.Function:
                writer.WriteNullValue();
                return;
            case ObjectInstance obj:
                writer.WriteStartObject();
                foreach (var key in obj.GetOwnPropertyKeys(Jint.Runtime.Types.String))
                {
                    var descriptor = obj.GetOwnProperty(key);
                    if (!descriptor.Enumerable)
                        continue;
                    var item = obj.Get(key);
                    if (item.IsUndefined() || item is Jint.Native.Function.Function)
                        continue;
                    WriteString(writer, key.ToString(), limit, propertyName: true);
                    WriteValue(writer, item, depth + 1, ref limit);
                }
                writer.WriteEndObject();
                return;
            default:
                if (value.IsNumber())
                    WriteNumber(writer, value.AsNumber());
                else if (value.IsString())
                    WriteString(writer, value.ToString(), limit);
                else if (value.IsBoolean())
                    writer.WriteBooleanValue(value.AsBoolean());
                else
                    writer.WriteNullValue();
                return;
        }
    }

    private static void WriteNumber(Utf8JsonWriter writer, double number)
    {
        if (double.IsNaN(number) || double.IsInfinity(number))
            writer.WriteNullValue();
        else if (number == Math.Floor(number) && Math.Abs(number) < 9.007199254740992E15)
            writer.WriteNumberValue((long)number);
        else
            writer.WriteNumberValue(number);
    }
}
