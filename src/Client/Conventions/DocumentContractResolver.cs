using System.Reflection;
using Newtonsoft.Json;
using Newtonsoft.Json.Serialization;

namespace Folio.Client.Conventions;

/// <summary>
/// The default contract resolver of entities: Newtonsoft.Json's, except that the identity property is not written
/// (a document's id lives in its metadata, not in its body).
/// </summary>
public sealed class DocumentContractResolver : DefaultContractResolver
{
    private readonly DocumentConventions _conventions;

    /// <summary>Creates the resolver for the conventions whose <see cref="DocumentConventions.IdentityPropertyName"/> it leaves out.</summary>
    public DocumentContractResolver(DocumentConventions conventions)
    {
        _conventions = conventions;
    }

    /// <inheritdoc />
    protected override JsonProperty CreateProperty(MemberInfo member, MemberSerialization memberSerialization)
    {
        JsonProperty property = base.CreateProperty(member, memberSerialization);
        if (member.Name == _conventions.IdentityPropertyName && property.PropertyType == typeof(string))
            property.ShouldSerialize = static _ => false;
        return property;
    }
}
