using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Scripting;
using Folio.Indexing.Search;
using Folio.Storage.Documents;
using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace Folio.Indexing.ScriptMaps;

/// <summary>
/// Runs a JavaScript map index's maps (<see cref="IndexDefinition.MapScript"/>) over documents, for one batch of the
/// index on one thread: one engine, the program's top level run once (its parse shared through
/// <see cref="CompiledScriptCache"/>), then one call per document. Each object a map returns becomes an entry whose
/// fields are the definition's paths read on that object (or, for a map/reduce index, whose groups and
/// aggregations are).
/// </summary>
internal sealed class ScriptMapRunner : IDisposable
{
    private readonly IndexDefinition _definition;
    private readonly DocumentStore? _store;
    private readonly ScriptSandbox _sandbox;
    private readonly Dictionary<string, JsValue[]> _maps;
    private readonly JsValue[] _argument = new JsValue[1];
    private readonly List<byte[]> _outputs = [];

    /// <summary>Prepares the engine; <paramref name="store"/> answers <c>load</c> (null: <c>load</c> finds nothing).</summary>
    /// <exception cref="ScriptException">The program's top level failed (it passed when the definition was checked, so only a limit stops it).</exception>
    public ScriptMapRunner(IndexDefinition definition, DocumentStore? store)
    {
        _definition = definition;
        _store = store;
        _sandbox = new ScriptSandbox(ScriptLimits.Default);
        _maps = ScriptMapProgram.Load(_sandbox, definition.MapScript!, (_, args) => Load(args));
    }

    /// <summary>Adds the entries of <paramref name="document"/> (keyed <paramref name="key"/>) to <paramref name="entries"/>.</summary>
    /// <exception cref="ScriptException">A map failed on the document or returned something that is not an object.</exception>
    public void AddEntries(Document document, string key, List<IndexEntry> entries)
    {
        var outputs = Map(document);
        for (var i = 0; i < outputs.Count; i++)
        {
            using var json = JsonDocument.Parse(outputs[i], new JsonDocumentOptions { MaxDepth = 256 });
            var entry = new IndexEntry(IndexDefinition.FanOutKey(key, i)).Add(IndexDefinition.IdField, key);
            DocumentFieldExtractor.AddFields(_definition, entry, json.RootElement);
            entries.Add(entry);
        }
    }

    /// <summary>
    /// The objects the maps of <paramref name="document"/>'s collection return for it, as UTF-8 JSON with dynamic fields
    /// in place (<see cref="DynamicFields"/>); the list is reused by the next call.
    /// </summary>
    /// <exception cref="ScriptException">A map failed on the document or returned something that is not an object.</exception>
    public List<byte[]> Map(Document document)
    {
        _outputs.Clear();
        if (!_maps.TryGetValue(document.CollectionString, out var maps))
            return _outputs;
        var source = WithMetadata(JsonToJs.Read(_sandbox.Engine, document.Json), document.IdString, document.CollectionString);
        foreach (var map in maps)
        {
            _argument[0] = source;
            var result = _sandbox.Invoke(map, JsValue.Undefined, _argument);
            if (result.IsNull() || result.IsUndefined())
                continue;
            if (result is JsArray array)
            {
                for (uint i = 0; i < array.Length; i++)
                {
                    var item = array.Get(i);
                    if (!item.IsNull() && !item.IsUndefined())
                        _outputs.Add(Output(item));
                }
                continue;
            }
            _outputs.Add(Output(result));
        }
        return _outputs;
    }

    // One entry's JSON: the size of a large document.
    private const long MaxOutputBytes = 16L * 1024 * 1024;

    private byte[] Output(JsValue output)
    {
        if (output is not ObjectInstance obj || output is JsArray)
            throw new ScriptException($"The map returned {output.Type.ToString().ToLowerInvariant()} '{output}'; it must return an object, an array of objects, or null.", ScriptFailure.Result);
        // Expanding and writing read the output's properties, which may be the map's getters or proxy traps.
        return _sandbox.Run((obj, _sandbox.Engine), static state => JsToJson.ToUtf8(DynamicFields.Expand(state.obj, state.Engine), maxBytes: MaxOutputBytes, maxValues: ScriptLimits.Default.MaxArraySize));
    }

    // The seeds' maps read a document's id and collection from its metadata.
    private static JsValue WithMetadata(JsValue document, string id, string collection)
    {
        if (document is not ObjectInstance obj)
            return document;
        if (obj.Get("@metadata") is not ObjectInstance metadata)
        {
            metadata = new JsObject(obj.Engine);
            obj.Set("@metadata", metadata);
        }
        if (metadata.Get("@id").IsUndefined())
            metadata.Set("@id", new JsString(id));
        if (metadata.Get("@collection").IsUndefined())
            metadata.Set("@collection", new JsString(collection));
        return document;
    }

    // load(id, collection?): the document as it is now, or null when missing or of another collection.
    private JsValue Load(JsValue[] args)
    {
        if (_store is null || args.Length == 0 || !args[0].IsString())
            return JsValue.Null;
        var id = args[0].ToString();
        var collection = args.Length > 1 && args[1].IsString() ? args[1].ToString() : null;
        using var reader = _store.OpenReader();
        if (id.Length == 0 || !reader.TryGet(id, out var loaded))
            return JsValue.Null;
        if (collection is not null && !string.Equals(loaded.CollectionString, collection, StringComparison.OrdinalIgnoreCase))
            return JsValue.Null;
        return WithMetadata(JsonToJs.Read(_sandbox.Engine, loaded.Json), loaded.IdString, loaded.CollectionString);
    }

    public void Dispose() => _sandbox.Dispose();
}
