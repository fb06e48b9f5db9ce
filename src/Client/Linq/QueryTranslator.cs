using System.Globalization;
using System.Linq.Expressions;
using System.Reflection;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;

namespace Folio.Client.Linq;

/// <summary>
/// Translates a LINQ expression tree over a Folio query into RQL with parameters: the chain of <c>Queryable</c> and
/// <see cref="FolioQueryableExtensions"/> calls becomes the RQL clauses, in the order RQL wants them. The where part
/// is in <c>QueryTranslator.Where.cs</c>.
/// </summary>
internal sealed partial class QueryTranslator
{
    private readonly JsonSerializer _serializer;
    private readonly string _idProperty;
    private readonly string _source;
    private readonly Dictionary<string, JToken> _parameters = [];
    private readonly List<string> _orderBy = [];
    private readonly List<string> _includes = [];
    private readonly List<string> _select = [];
    private readonly List<string> _idAliases = [];
    private readonly QueryCustomization _customization = new();
    private string? _where;
    private string? _filter;
    private int? _filterLimit;
    private ProjectionKind _projection;
    private string? _singleField;
    private int? _skip;
    private int? _take;
    private QueryStatistics? _statistics;
    private ResultOperator _operator;

    public QueryTranslator(JsonSerializer serializer, string idProperty, string source)
    {
        _serializer = serializer;
        _idProperty = idProperty;
        _source = source;
    }

    /// <summary>The RQL <c>from</c> part for a collection or an index.</summary>
    public static string Source(string? indexName, string collection) =>
        indexName is not null ? "from index " + Quote(indexName) : "from " + (IsIdentifier(collection) ? collection : Quote(collection));

    public TranslatedQuery Translate(Expression expression, ResultOperator resultOperator)
    {
        _operator = resultOperator;
        VisitChain(expression);
        if (_operator is ResultOperator.First or ResultOperator.FirstOrDefault)
            _take = Math.Min(_take ?? 1, 1);
        else if (_operator is ResultOperator.Single or ResultOperator.SingleOrDefault)
            _take = Math.Min(_take ?? 2, 2);
        else if (_operator is ResultOperator.Count or ResultOperator.Any)
            _take = 0;

        var rql = new StringBuilder(_source);
        if (_where is not null)
            rql.Append(" where ").Append(_where);
        if (_filter is not null)
        {
            rql.Append(" filter ").Append(_filter);
            if (_filterLimit is int filterLimit && filterLimit != int.MaxValue)
                rql.Append(" filter_limit ").Append(filterLimit.ToString(CultureInfo.InvariantCulture));
        }
        if (_orderBy.Count > 0)
            rql.Append(" order by ").AppendJoin(", ", _orderBy);
        if (_select.Count > 0)
            rql.Append(" select ").AppendJoin(", ", _select);
        if (_includes.Count > 0)
            rql.Append(" include ").AppendJoin(", ", _includes);
        if (_take is int take)
            rql.Append(" limit ").Append(take.ToString(CultureInfo.InvariantCulture));
        if (_skip is int skip)
            rql.Append(" offset ").Append(skip.ToString(CultureInfo.InvariantCulture));

        return new TranslatedQuery
        {
            Rql = rql.ToString(),
            Parameters = _parameters,
            Operator = _operator,
            Projection = _projection,
            SingleField = _singleField,
            IdAliases = _idAliases,
            Customization = _customization,
            Statistics = _statistics,
        };
    }

    private void VisitChain(Expression expression)
    {
        if (expression is ConstantExpression)
            return;
        if (expression is not MethodCallExpression call)
            throw new NotSupportedException($"Folio cannot translate '{expression}' to RQL.");
        VisitChain(call.Arguments[0]);
        string name = call.Method.Name;
        if (call.Method.DeclaringType == typeof(FolioQueryableExtensions))
        {
            VisitFolioMethod(call);
            return;
        }
        if (call.Method.DeclaringType != typeof(Queryable))
            throw new NotSupportedException($"Folio cannot translate the method {call.Method.DeclaringType?.Name}.{name} to RQL.");
        switch (name)
        {
            case "Where":
                RequireNoProjection(name);
                AddWhere(Translate(Lambda(call.Arguments[1]).Body));
                break;
            case "OrderBy" or "OrderByDescending":
                _orderBy.Clear();
                AddOrder(Lambda(call.Arguments[1]), name.EndsWith("Descending", StringComparison.Ordinal));
                break;
            case "ThenBy" or "ThenByDescending":
                AddOrder(Lambda(call.Arguments[1]), name.EndsWith("Descending", StringComparison.Ordinal));
                break;
            case "Select":
                RequireNoProjection(name);
                AddProjection(Lambda(call.Arguments[1]));
                break;
            case "Skip":
                _skip = (_skip ?? 0) + (int)Evaluate(call.Arguments[1])!;
                if (_take is int take)
                    _take = Math.Max(0, take - (int)Evaluate(call.Arguments[1])!);
                break;
            case "Take":
                int count = (int)Evaluate(call.Arguments[1])!;
                _take = _take is int current ? Math.Min(current, count) : count;
                break;
            case "Count" or "LongCount" or "Any" or "First" or "FirstOrDefault" or "Single" or "SingleOrDefault":
                if (call.Arguments.Count > 1)
                    AddWhere(Translate(Lambda(call.Arguments[1]).Body));
                _operator = Enum.Parse<ResultOperator>(name == "LongCount" ? "Count" : name);
                break;
            default:
                throw new NotSupportedException($"Folio cannot translate Queryable.{name} to RQL; supported: Where, OrderBy/ThenBy(Descending), Select, Skip, Take, Count, Any, First, Single (and their OrDefault forms).");
        }
    }

    private void VisitFolioMethod(MethodCallExpression call)
    {
        switch (call.Method.Name)
        {
            case nameof(FolioQueryableExtensions.Search):
                string field = ExpressionPaths.MemberPath(Lambda(call.Arguments[1]).Body);
                string terms = (string)Evaluate(call.Arguments[2])!;
                AddWhere($"search({Field(field)}, {AddParameter(terms)})");
                break;
            case nameof(FolioQueryableExtensions.Filter):
                RequireNoProjection(call.Method.Name);
                string condition = Translate(Lambda(call.Arguments[1]).Body);
                _filter = _filter is null ? condition : $"({_filter}) and ({condition})";
                int limit = (int)Evaluate(call.Arguments[2])!;
                _filterLimit = _filterLimit is int current ? Math.Min(current, limit) : limit;
                break;
            case nameof(FolioQueryableExtensions.Include):
                _includes.Add(Field(ExpressionPaths.MemberPath(Lambda(call.Arguments[1]).Body)));
                break;
            case nameof(FolioQueryableExtensions.Customize):
                ((Action<IQueryCustomization>)Evaluate(call.Arguments[1])!)(_customization);
                break;
            case nameof(FolioQueryableExtensions.StatisticsMarker):
                _statistics = (QueryStatistics)Evaluate(call.Arguments[1])!;
                break;
            default:
                throw new NotSupportedException($"Folio cannot translate {call.Method.Name} to RQL.");
        }
    }

    private void RequireNoProjection(string method)
    {
        if (_projection != ProjectionKind.None)
            throw new NotSupportedException($"{method} after Select is not supported: filter and project in that order.");
    }

    private void AddWhere(string condition) => _where = _where is null ? condition : $"({_where}) and ({condition})";

    private void AddOrder(LambdaExpression key, bool descending)
    {
        string field = FieldOf(key.Body);
        string order = field + SortType(ExpressionPaths.StripConvert(key.Body).Type);
        _orderBy.Add(descending ? order + " desc" : order);
    }

    private static string SortType(Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        return Type.GetTypeCode(type) switch
        {
            TypeCode.Byte or TypeCode.SByte or TypeCode.Int16 or TypeCode.UInt16 or TypeCode.Int32 or TypeCode.UInt32 or TypeCode.Int64 or TypeCode.UInt64 => " as long",
            TypeCode.Single or TypeCode.Double or TypeCode.Decimal => " as double",
            _ => "",
        };
    }

    private void AddProjection(LambdaExpression selector)
    {
        Expression body = ExpressionPaths.StripConvert(selector.Body);
        switch (body)
        {
            case NewExpression { Members: not null } created:
                _projection = ProjectionKind.Object;
                for (int i = 0; i < created.Arguments.Count; i++)
                    AddSelectField(created.Arguments[i], created.Members[i].Name);
                break;
            case MemberInitExpression init when init.NewExpression.Arguments.Count == 0:
                _projection = ProjectionKind.Object;
                foreach (MemberBinding binding in init.Bindings)
                {
                    if (binding is not MemberAssignment assignment)
                        throw new NotSupportedException($"Folio cannot project '{binding}'; assign members from document fields.");
                    AddSelectField(assignment.Expression, JsonName(binding.Member));
                }
                break;
            default:
                if (IsId(body))
                    throw new NotSupportedException("Select(x => x.Id) is not supported: project into an object that holds the id, e.g. new { x.Id, x.Name }.");
                string path = JsonPath(body);
                _projection = ProjectionKind.SingleField;
                _singleField = IsIdentifier(path) ? path : "Value";
                _select.Add(IsIdentifier(path) ? path : Field(path) + " as Value");
                break;
        }
    }

    private void AddSelectField(Expression value, string alias)
    {
        if (IsId(value))
        {
            _idAliases.Add(alias);
            return;
        }
        string path = JsonPath(value);
        _select.Add(path == alias ? Field(path) : $"{Field(path)} as {Field(alias)}");
    }

    private bool IsId(Expression expression) =>
        ExpressionPaths.StripConvert(expression) is MemberExpression { Expression: ParameterExpression } member && member.Member.Name == _idProperty;

    /// <summary>The RQL field for an expression: <c>id()</c> for the id property, else the path in the stored JSON.</summary>
    private string FieldOf(Expression expression) => IsId(expression) ? "id()" : Field(JsonPath(expression));

    /// <summary>The path as the serializer names the properties (a <c>[JsonProperty]</c> name wins over the member's).</summary>
    private string JsonPath(Expression expression)
    {
        string path = ExpressionPaths.MemberPath(expression);
        if (ExpressionPaths.StripConvert(expression) is MemberExpression { Expression: ParameterExpression } member)
            return JsonName(member.Member);
        return path;
    }

    private string JsonName(MemberInfo member)
    {
        if (member.DeclaringType is not null && _serializer.ContractResolver.ResolveContract(member.DeclaringType) is JsonObjectContract contract)
        {
            foreach (JsonProperty property in contract.Properties)
            {
                if (property.UnderlyingName == member.Name && property.PropertyName is not null)
                    return property.PropertyName;
            }
        }
        return member.Name;
    }

    /// <summary>A path as RQL reads it: bare when every part is a plain name, else quoted.</summary>
    private static string Field(string path)
    {
        foreach (char c in path)
        {
            if (!(char.IsLetterOrDigit(c) || c is '_' or '.' or '[' or ']'))
                return Quote(path);
        }
        return path;
    }

    private static bool IsIdentifier(string name)
    {
        if (name.Length == 0 || !(char.IsLetter(name[0]) || name[0] == '_'))
            return false;
        foreach (char c in name)
        {
            if (!(char.IsLetterOrDigit(c) || c == '_'))
                return false;
        }
        return true;
    }

    internal static string Quote(string text) => "'" + text.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal) + "'";

    private string AddParameter(object? value)
    {
        string name = "p" + _parameters.Count.ToString(CultureInfo.InvariantCulture);
        _parameters[name] = value is null ? JValue.CreateNull() : JToken.FromObject(value, _serializer);
        return "$" + name;
    }

    private static LambdaExpression Lambda(Expression expression) =>
        ExpressionPaths.StripQuote(expression) as LambdaExpression ?? throw new NotSupportedException($"Expected a lambda, found '{expression}'.");

    /// <summary>The value of an expression that does not depend on the document (a constant or a captured variable).</summary>
    private static object? Evaluate(Expression expression)
    {
        expression = ExpressionPaths.StripQuote(expression);
        switch (expression)
        {
            case ConstantExpression constant:
                return constant.Value;
            case MemberExpression { Member: FieldInfo field } member when member.Expression is null or ConstantExpression:
                return field.GetValue(member.Expression is ConstantExpression owner ? owner.Value : null);
            case MemberExpression { Member: PropertyInfo property } member when member.Expression is null or ConstantExpression:
                return property.GetValue(member.Expression is ConstantExpression holder ? holder.Value : null);
            default:
                return Expression.Lambda<Func<object?>>(Expression.Convert(expression, typeof(object))).Compile(preferInterpretation: true)();
        }
    }
}
