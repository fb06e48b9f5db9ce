using System.Reflection;
using System.Reflection.Emit;

namespace Folio.Indexing.Tests.Engines;

/// <summary>
/// The types a type names anywhere: its base and interfaces, its members' signatures, its methods' locals, and
/// every type, field and method its methods' IL refers to (so a call through a returned value counts, even
/// with no local of that type). Nested types, which hold lambdas and async and iterator state, are the caller's
/// to include.
/// </summary>
internal static class TypeReferences
{
    private const BindingFlags Declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    private static readonly Dictionary<ushort, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(field => (OpCode)field.GetValue(null)!)
        .ToDictionary(code => (ushort)code.Value);

    /// <summary>Every type <paramref name="type"/> names, with where it names it.</summary>
    public static List<(Type Type, string Where)> Of(Type type)
    {
        var found = new List<(Type, string)>();
        Add(found, type.BaseType, "base type");
        foreach (var contract in type.GetInterfaces())
            Add(found, contract, "interface");
        foreach (var field in type.GetFields(Declared))
            Add(found, field.FieldType, "field " + field.Name);
        foreach (var property in type.GetProperties(Declared))
            Add(found, property.PropertyType, "property " + property.Name);
        foreach (var method in type.GetMethods(Declared).Cast<MethodBase>().Concat(type.GetConstructors(Declared)))
        {
            var where = "method " + method.Name;
            if (method is MethodInfo info)
                Add(found, info.ReturnType, where);
            foreach (var parameter in method.GetParameters())
                Add(found, parameter.ParameterType, where);
            var body = method.GetMethodBody();
            if (body is null)
                continue;
            foreach (var local in body.LocalVariables)
                Add(found, local.LocalType, where + " (local)");
            AddFromIl(found, method, body.GetILAsByteArray() ?? [], where + " (body)");
        }
        return found;
    }

    private static void AddFromIl(List<(Type, string)> found, MethodBase method, byte[] il, string where)
    {
        var typeArguments = method.DeclaringType is { IsGenericType: true } declaring ? declaring.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        var position = 0;
        while (position < il.Length)
        {
            ushort value = il[position++];
            if (value == 0xFE)
                value = (ushort)(0xFE00 | il[position++]);
            var code = OpCodesByValue[value];
            switch (code.OperandType)
            {
                case OperandType.InlineField or OperandType.InlineMethod or OperandType.InlineType or OperandType.InlineTok:
                    var member = method.Module.ResolveMember(BitConverter.ToInt32(il, position), typeArguments, methodArguments);
                    AddMember(found, member, where);
                    position += 4;
                    break;
                case OperandType.InlineSwitch:
                    position += 4 + 4 * BitConverter.ToInt32(il, position);
                    break;
                case OperandType.InlineI8 or OperandType.InlineR:
                    position += 8;
                    break;
                case OperandType.InlineVar:
                    position += 2;
                    break;
                case OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar:
                    position += 1;
                    break;
                case OperandType.InlineNone:
                    break;
                default:
                    position += 4;
                    break;
            }
        }
    }

    private static void AddMember(List<(Type, string)> found, MemberInfo? member, string where)
    {
        switch (member)
        {
            case Type type:
                Add(found, type, where);
                break;
            case FieldInfo field:
                Add(found, field.DeclaringType, where);
                Add(found, field.FieldType, where);
                break;
            case MethodBase called:
                Add(found, called.DeclaringType, where);
                if (called is MethodInfo info)
                {
                    Add(found, info.ReturnType, where);
                    foreach (var argument in info.IsGenericMethod ? info.GetGenericArguments() : [])
                        Add(found, argument, where);
                }
                foreach (var parameter in called.GetParameters())
                    Add(found, parameter.ParameterType, where);
                break;
        }
    }

    private static void Add(List<(Type, string)> found, Type? type, string where)
    {
        if (type is null || type.IsGenericParameter)
            return;
        if (type.HasElementType)
        {
            Add(found, type.GetElementType(), where);
            return;
        }
        if (type.IsGenericType)
        {
            foreach (var argument in type.GetGenericArguments())
                Add(found, argument, where);
            type = type.GetGenericTypeDefinition();
        }
        found.Add((type, where));
    }
}
