using System.Text.Json;
using Folio.Indexing.Queries;

namespace Folio.Indexing.Querying;

/// <summary>
/// Reads the options of <c>morelikethis()</c>, a JSON object as the seeds write it
/// (<c>{"Fields":["Body"],"MinimumTermFrequency":1,"MinimumDocumentFrequency":1,"MaximumQueryTerms":25}</c>); names
/// compare case-insensitively, an unknown or unsupported one is an error naming it.
/// </summary>
internal static class MoreLikeThisOptionsJson
{
    private const string Known = "Fields, MinimumTermFrequency, MinimumDocumentFrequency, MaximumDocumentFrequency, MaximumDocumentFrequencyPercentage, "
        + "MaximumQueryTerms, MaximumNumberOfTokensParsed, MinimumWordLength, MaximumWordLength, Boost, BoostFactor";

    /// <summary>The options, and the fields they name (null when they name none).</summary>
    public static (MoreLikeThisOptions Options, List<string>? Fields) Parse(JsonElement json)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new QueryException("The options of morelikethis() must be a JSON object, as in {\"Fields\":[\"Body\"],\"MinimumTermFrequency\":1}.");
        var options = new MoreLikeThisOptions();
        List<string>? fields = null;
        foreach (var property in json.EnumerateObject())
        {
            var value = property.Value;
            switch (property.Name.ToLowerInvariant())
            {
                case "fields":
                    fields = Strings(value, property.Name);
                    break;
                case "minimumtermfrequency":
                    options = options with { MinimumTermFrequency = Whole(value, property.Name) };
                    break;
                case "minimumdocumentfrequency":
                    options = options with { MinimumDocumentFrequency = Whole(value, property.Name) };
                    break;
                case "maximumdocumentfrequency":
                    options = options with { MaximumDocumentFrequency = value.ValueKind == JsonValueKind.Null ? long.MaxValue : Whole(value, property.Name) };
                    break;
                case "maximumdocumentfrequencypercentage":
                    var percentage = value.ValueKind == JsonValueKind.Null ? (int?)null : Whole(value, property.Name);
                    if (percentage is > 100)
                        throw new QueryException("MaximumDocumentFrequencyPercentage of morelikethis() must be between 0 and 100.");
                    options = options with { MaximumDocumentFrequencyPercentage = percentage };
                    break;
                case "maximumqueryterms":
                    options = options with { MaximumQueryTerms = Whole(value, property.Name) };
                    break;
                case "maximumnumberoftokensparsed":
                    options = options with { MaximumNumberOfTokensParsed = Whole(value, property.Name) };
                    break;
                case "minimumwordlength":
                    options = options with { MinimumWordLength = Whole(value, property.Name) };
                    break;
                case "maximumwordlength":
                    options = options with { MaximumWordLength = Whole(value, property.Name) };
                    break;
                case "boost":
                    options = options with { Boost = value.ValueKind switch
                    {
                        JsonValueKind.True => true,
                        JsonValueKind.False or JsonValueKind.Null => false,
                        _ => throw new QueryException("Boost of morelikethis() must be true or false."),
                    } };
                    break;
                case "boostfactor":
                    if (value.ValueKind != JsonValueKind.Number || !(value.GetDouble() is > 0 and <= float.MaxValue))
                        throw new QueryException("BoostFactor of morelikethis() must be a number above 0.");
                    options = options with { BoostFactor = (float)value.GetDouble() };
                    break;
                case "stopwordsdocumentid":
                    throw new QueryException("morelikethis() does not support StopWordsDocumentId; the field's analyzer decides the stop words.");
                default:
                    throw new QueryException($"Unknown option '{property.Name}' of morelikethis() (expected {Known}).");
            }
        }
        return (options, fields);
    }

    private static int Whole(JsonElement value, string name) =>
        value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out var number) && number >= 0
            ? number
            : throw new QueryException($"{name} of morelikethis() must be a whole number of 0 or more.");

    private static List<string> Strings(JsonElement value, string name)
    {
        if (value.ValueKind != JsonValueKind.Array)
            throw new QueryException($"{name} of morelikethis() must be an array of field names.");
        var strings = new List<string>();
        foreach (var item in value.EnumerateArray())
            strings.Add(item.ValueKind == JsonValueKind.String ? item.GetString()! : throw new QueryException($"{name} of morelikethis() must hold field names."));
        return strings;
    }
}
