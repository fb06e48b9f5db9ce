using System.Globalization;
using System.Text.Json;
using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace Folio.Indexing.Scripting;

/// <summary>
/// Writes what a script returned, or the document it changed, as JSON the way <c>JSON.stringify</c> would:
/// functions and <c>undefined</c> properties are left out, <c>NaN</c> and infinities become null, dates their
/// ISO text; a cycle or nesting deeper than the document limit is a <see cref="ScriptException"/>.
/// </summary>
public static class JsToJson
{
    /// <summary>Writes <paramref name="value"/>.</summary>
    public static void Write(Utf8JsonWriter writer, JsValue value, int maxDepth = 64)
    {
        ArgumentNullException.ThrowIfNull(writer);
        WriteValue(writer, value, 0, maxDepth);
    }

    /// <summary><paramref name="value"/> as UTF-8 JSON.</summary>
    public static byte[] ToUtf8(JsValue value, int maxDepth = 64)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true }))
            Write(writer, value, maxDepth);
        return buffer.WrittenSpan.ToArray();
    }

    private static void WriteValue(Utf8JsonWriter writer, JsValue value, int depth, int maxDepth)
    {
        if (depth > maxDepth)
            throw new ScriptException($"The script's result nests deeper than {maxDepth} levels (or refers to itself).", ScriptFailure.Result);
        switch (value)
        {
            case JsString:
                writer.WriteStringValue(value.ToString());
                return;
            case JsNumber:
                WriteNumber(writer, value.AsNumber());
                return;
            case JsBoolean:
                writer.WriteBooleanValue(value.AsBoolean());
                return;
            case JsDate date:
                if (!double.IsNaN(date.DateValue))
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
                        WriteValue(writer, item, depth + 1, maxDepth);
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
                    writer.WritePropertyName(key.ToString());
                    WriteValue(writer, item, depth + 1, maxDepth);
                }
                writer.WriteEndObject();
                return;
            default:
                if (value.IsNumber())
                    WriteNumber(writer, value.AsNumber());
                else if (value.IsString())
                    writer.WriteStringValue(value.ToString());
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
