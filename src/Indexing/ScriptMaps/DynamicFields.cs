using Jint;
using Jint.Native;
using Jint.Native.Object;

namespace Folio.Indexing.ScriptMaps;

/// <summary>
/// Fields a map names at run time: a property whose value is <c>{ $name, $value, $options }</c> (what
/// <c>createField</c> returns), or an array of them, stands for the fields it names, whatever the property is called
/// (the seeds' maps use <c>_</c>). Several with one name make an array. <c>$options</c> is not read per value: how a
/// field is indexed is the definition's (the seeds' definitions repeat it in their <c>Fields</c>).
/// </summary>
internal static class DynamicFields
{
    /// <summary><paramref name="output"/> with its dynamic fields in place of the properties that held them; itself when it has none.</summary>
    public static ObjectInstance Expand(ObjectInstance output, Engine engine)
    {
        JsObject? expanded = null;
        foreach (var key in output.GetOwnPropertyKeys(Jint.Runtime.Types.String))
        {
            var value = output.Get(key);
            if (!HoldsDynamic(value))
                continue;
            expanded ??= CopyPlain(output, engine);
            if (value is JsArray array)
            {
                for (uint i = 0; i < array.Length; i++)
                    Set(expanded, engine, (ObjectInstance)array.Get(i));
            }
            else
            {
                Set(expanded, engine, (ObjectInstance)value);
            }
        }
        return expanded ?? output;
    }

    private static bool HoldsDynamic(JsValue value)
    {
        if (value is JsArray array)
        {
            if (array.Length == 0)
                return false;
            for (uint i = 0; i < array.Length; i++)
            {
                if (!IsDynamic(array.Get(i)))
                    return false;
            }
            return true;
        }
        return IsDynamic(value);
    }

    private static bool IsDynamic(JsValue value) =>
        value is ObjectInstance obj and not JsArray && obj.HasOwnProperty("$name") && obj.HasOwnProperty("$value");

    private static JsObject CopyPlain(ObjectInstance output, Engine engine)
    {
        var copy = new JsObject(engine);
        foreach (var key in output.GetOwnPropertyKeys(Jint.Runtime.Types.String))
        {
            var value = output.Get(key);
            if (!HoldsDynamic(value))
                copy.Set(key, value);
        }
        return copy;
    }

    private static void Set(JsObject target, Engine engine, ObjectInstance field)
    {
        var name = field.Get("$name");
        if (!name.IsString())
            return;
        var value = field.Get("$value");
        var existing = target.Get(name);
        if (existing.IsUndefined())
        {
            target.Set(name, value);
            return;
        }
        if (existing is JsArray values)
        {
            values.Push(value);
            return;
        }
        target.Set(name, new JsArray(engine, [existing, value]));
    }
}
