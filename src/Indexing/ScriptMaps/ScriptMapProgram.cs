using Folio.Indexing.Definitions;
using Folio.Indexing.Scripting;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime.Interop;

namespace Folio.Indexing.ScriptMaps;

/// <summary>
/// The program a JavaScript map index runs: the client's <see cref="IndexDefinition.MapScript"/> after Folio's glue,
/// which gives it <c>map(collection, fn)</c> (registers a map), <c>load(id, collection?)</c> and
/// <c>noTracking.load</c> (read another document as it is when the document is indexed), <c>id(doc)</c>,
/// <c>getMetadata(doc)</c>, <c>createField(name, value, options)</c> (a field named at run time, as
/// <c>{ $name, $value, $options }</c> does) and <c>createSpatialField(lat, lng)</c> or <c>createSpatialField(wkt)</c>.
/// </summary>
public static class ScriptMapProgram
{
    /// <summary>The global the glue registers maps in: lower-cased collection name → array of functions.</summary>
    internal const string MapsGlobal = "__folioMaps";

    // load is Folio's (a .NET function set per engine); the rest is plain JavaScript every engine shares.
    private const string Glue =
        "var __folioMaps = {};\n" +
        "function map(collection, fn) {\n" +
        "  if (typeof collection !== 'string' || typeof fn !== 'function') throw new TypeError('map(collection, fn) takes a collection name and a function');\n" +
        "  var key = collection.toLowerCase();\n" +
        "  (__folioMaps[key] = __folioMaps[key] || []).push(fn);\n" +
        "}\n" +
        "function id(d) { return d && d['@metadata'] ? d['@metadata']['@id'] : null; }\n" +
        "function getMetadata(d) { return d ? d['@metadata'] : null; }\n" +
        "function createField(name, value, options) { return { $name: name, $value: value, $options: options }; }\n" +
        "function createSpatialField(a, b) { return b === undefined ? a : { lat: a, lng: b }; }\n" +
        "var noTracking = { load: function (i, c) { return load(i, c); } };\n";

    /// <summary>The assembled program of <paramref name="mapScript"/>, errors placed in the client's text.</summary>
    public static ScriptSource Source(string mapScript) => new ScriptSource().Glue(Glue).Client(mapScript, 1, 1);

    /// <summary>
    /// Checks that <paramref name="mapScript"/> parses, runs its top level within the limits, and registers a map for
    /// each of <paramref name="collections"/> and for no other collection.
    /// </summary>
    /// <exception cref="IndexDefinitionException">It does not, with the reason (and the client's line and column).</exception>
    public static void Validate(string indexName, string mapScript, IReadOnlyList<string> collections)
    {
        if (string.IsNullOrWhiteSpace(mapScript))
            throw new IndexDefinitionException($"MapScript of index '{indexName}' is empty.");
        using var sandbox = new ScriptSandbox(ScriptLimits.Default);
        Dictionary<string, JsValue[]> maps;
        try
        {
            maps = Load(sandbox, mapScript, static (_, _) => JsValue.Null);
        }
        catch (ScriptException e)
        {
            throw new IndexDefinitionException($"MapScript of index '{indexName}': {e.Message}");
        }
        if (maps.Count == 0)
            throw new IndexDefinitionException($"MapScript of index '{indexName}' registers no map: call map('Collection', doc => ({{ … }})).");
        foreach (var collection in collections)
        {
            if (!maps.ContainsKey(collection))
                throw new IndexDefinitionException($"MapScript of index '{indexName}' has no map for collection '{collection}' of its Collections.");
        }
        foreach (var registered in maps.Keys)
        {
            var named = false;
            foreach (var collection in collections)
                named |= string.Equals(collection, registered, StringComparison.OrdinalIgnoreCase);
            if (!named)
                throw new IndexDefinitionException($"MapScript of index '{indexName}' maps collection '{registered}', which its Collections do not name.");
        }
    }

    /// <summary>Runs the program's top level in <paramref name="sandbox"/> with <paramref name="load"/> as <c>load</c>; the maps it registered by collection (any case).</summary>
    /// <exception cref="ScriptException">The program does not parse or its top level fails.</exception>
    internal static Dictionary<string, JsValue[]> Load(ScriptSandbox sandbox, string mapScript, Func<JsValue, JsValue[], JsValue> load)
    {
        sandbox.SetGlobal("load", new ClrFunction(sandbox.Engine, "load", load));
        sandbox.Load(Source(mapScript));
        var maps = new Dictionary<string, JsValue[]>(StringComparer.OrdinalIgnoreCase);
        if (sandbox.Engine.GetValue(MapsGlobal) is not ObjectInstance registered)
            return maps;
        foreach (var key in registered.GetOwnPropertyKeys(Jint.Runtime.Types.String))
        {
            if (registered.Get(key) is not JsArray functions)
                continue;
            var list = new JsValue[functions.Length];
            for (uint i = 0; i < functions.Length; i++)
                list[i] = functions.Get(i);
            maps[key.ToString()] = list;
        }
        return maps;
    }
}
