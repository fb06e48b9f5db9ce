using System.Collections.Concurrent;
using System.Reflection;
using Newtonsoft.Json;

namespace Folio.Client.Conventions;

/// <summary>
/// How entities map to documents: collection names, id properties, id generation, serialization, and the limits of a
/// session. Change them before the store is first used.
/// </summary>
public sealed class DocumentConventions
{
    private readonly ConcurrentDictionary<Type, string> _collectionNames = new();
    private readonly ConcurrentDictionary<Type, PropertyInfo?> _idProperties = new();
    private JsonSerializer? _serializer;

    /// <summary>The collection of a type; by default its name in the plural (<c>Order</c> → <c>Orders</c>, <c>Company</c> → <c>Companies</c>).</summary>
    public Func<Type, string> FindCollectionName { get; set; } = DefaultCollectionName;

    /// <summary>The prefix of ids made for a collection; by default the collection in lower case and a slash (<c>orders/</c>).</summary>
    public Func<string, string> FindIdPrefix { get; set; } = static collection => collection.ToLowerInvariant() + "/";

    /// <summary>The name of the string property that holds an entity's id; <c>Id</c> by default.</summary>
    public string IdentityPropertyName { get; set; } = "Id";

    /// <summary>How new entities without an id get one; <see cref="IdGeneration.Server"/> by default.</summary>
    public IdGeneration IdGeneration { get; set; } = IdGeneration.Server;

    /// <summary>The most requests one session may make; 30 by default. The next one throws <see cref="Exceptions.RequestBudgetExceededException"/>.</summary>
    public int MaxNumberOfRequestsPerSession { get; set; } = 30;

    /// <summary>Settings of the Newtonsoft.Json serializer entities are written and read with.</summary>
    /// <remarks>The default contract resolver, <see cref="DocumentContractResolver"/>, leaves the identity property out of the stored body.</remarks>
    public JsonSerializerSettings SerializerSettings { get; set; }

    /// <summary>Creates the default conventions.</summary>
    public DocumentConventions()
    {
        SerializerSettings = new JsonSerializerSettings
        {
            ContractResolver = new DocumentContractResolver(this),
            NullValueHandling = NullValueHandling.Include,
            DateParseHandling = DateParseHandling.None,
        };
    }

    internal JsonSerializer Serializer => _serializer ??= CreateSerializer();

    internal string GetCollectionName(Type type) => _collectionNames.GetOrAdd(type, FindCollectionName);

    internal PropertyInfo? GetIdProperty(Type type) =>
        _idProperties.GetOrAdd(type, static (t, name) =>
        {
            PropertyInfo? property = t.GetProperty(name, BindingFlags.Public | BindingFlags.Instance);
            return property is not null && property.PropertyType == typeof(string) && property.CanRead && property.CanWrite ? property : null;
        }, IdentityPropertyName);

    internal string? GetId(object entity) => (string?)GetIdProperty(entity.GetType())?.GetValue(entity);

    internal void SetId(object entity, string id) => GetIdProperty(entity.GetType())?.SetValue(entity, id);

    private JsonSerializer CreateSerializer()
    {
        var serializer = JsonSerializer.Create(SerializerSettings);
        serializer.DateParseHandling = DateParseHandling.None;
        return serializer;
    }

    /// <summary>The English plural of a type's name, enough for entity names.</summary>
    public static string DefaultCollectionName(Type type)
    {
        string name = type.Name;
        int generic = name.IndexOf('`', StringComparison.Ordinal);
        if (generic > 0)
            name = name[..generic];
        if (name.Length == 0)
            return name;
        if (name.EndsWith('y') && name.Length > 1 && !IsVowel(name[^2]))
            return name[..^1] + "ies";
        if (name.EndsWith('s') || name.EndsWith('x') || name.EndsWith('z') || name.EndsWith("ch", StringComparison.Ordinal) || name.EndsWith("sh", StringComparison.Ordinal))
            return name + "es";
        return name + "s";
    }

    private static bool IsVowel(char c) => c is 'a' or 'e' or 'i' or 'o' or 'u' or 'A' or 'E' or 'I' or 'O' or 'U';
}
