using System.Runtime.InteropServices;
using System.Text.Json;
using Jint;
using Jint.Native;

namespace Folio.Indexing.Scripting;

/// <summary>
/// Builds JavaScript values straight from a document's stored UTF-8 JSON: one pass of a reader over the bytes
/// (the page itself, while the read transaction is open), no intermediate text or DOM.
/// </summary>
public static class JsonToJs
{
    /// <summary>The value of the JSON text <paramref name="utf8Json"/>.</summary>
    public static JsValue Read(Engine engine, ReadOnlySpan<byte> utf8Json)
    {
        ArgumentNullException.ThrowIfNull(engine);
        var reader = new Utf8JsonReader(utf8Json, new JsonReaderOptions { MaxDepth = 256 });
        reader.Read();
        return ReadValue(engine, ref reader);
    }

    /// <summary>The value of <paramref name="element"/> (a query parameter, a patch's <c>Values</c>).</summary>
    public static JsValue FromElement(Engine engine, JsonElement element) =>
        Read(engine, JsonMarshal.GetRawUtf8Value(element));

    private static JsValue ReadValue(Engine engine, ref Utf8JsonReader reader)
    {
        switch (reader.TokenType)
        {
            case JsonTokenType.StartObject:
                var obj = new JsObject(engine);
                while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                {
                    var name = reader.GetString()!;
                    reader.Read();
                    obj.Set(name, ReadValue(engine, ref reader));
                }
                return obj;
            case JsonTokenType.StartArray:
                var items = new List<JsValue>();
                while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                    items.Add(ReadValue(engine, ref reader));
                return new JsArray(engine, items.ToArray());
            case JsonTokenType.String:
                return new JsString(reader.GetString()!);
            case JsonTokenType.Number:
                return reader.TryGetInt64(out var whole) && whole is > -(1L << 53) and < 1L << 53
                    ? JsNumber.Create(whole)
                    : JsNumber.Create(reader.GetDouble());
            case JsonTokenType.True:
                return JsBoolean.True;
            case JsonTokenType.False:
                return JsBoolean.False;
            default:
                return JsValue.Null;
        }
    }
}
