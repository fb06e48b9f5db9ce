using System.Collections;
using System.Linq.Expressions;
using System.Text;

namespace Folio.Client.Linq;

/// <summary>The where clause: comparisons, <c>&amp;&amp;</c>, <c>||</c>, <c>!</c>, <c>Contains</c>, <c>StartsWith</c>, <c>EndsWith</c>.</summary>
internal sealed partial class QueryTranslator
{
    private string Translate(Expression expression)
    {
        expression = ExpressionPaths.StripConvert(expression);
        switch (expression)
        {
            case BinaryExpression { NodeType: ExpressionType.AndAlso or ExpressionType.And } both when both.Type == typeof(bool):
                return $"({Translate(both.Left)} and {Translate(both.Right)})";
            case BinaryExpression { NodeType: ExpressionType.OrElse or ExpressionType.Or } either when either.Type == typeof(bool):
                return $"({Translate(either.Left)} or {Translate(either.Right)})";
            case BinaryExpression binary:
                return Comparison(binary);
            case UnaryExpression { NodeType: ExpressionType.Not } negation:
                return $"not ({Translate(negation.Operand)})";
            case MethodCallExpression call:
                return Method(call);
            case MemberExpression member when member.Type == typeof(bool) || member.Type == typeof(bool?):
                return $"{FieldOf(member)} = true";
            default:
                throw new NotSupportedException($"Folio cannot translate the condition '{expression}' to RQL.");
        }
    }

    private string Comparison(BinaryExpression binary)
    {
        string op = binary.NodeType switch
        {
            ExpressionType.Equal => "=",
            ExpressionType.NotEqual => "!=",
            ExpressionType.LessThan => "<",
            ExpressionType.LessThanOrEqual => "<=",
            ExpressionType.GreaterThan => ">",
            ExpressionType.GreaterThanOrEqual => ">=",
            _ => throw new NotSupportedException($"Folio cannot translate the operator {binary.NodeType} in '{binary}' to RQL."),
        };
        Expression left = ExpressionPaths.StripConvert(binary.Left);
        Expression right = ExpressionPaths.StripConvert(binary.Right);
        // string.Compare(x.Name, "b") > 0 and x.Name.CompareTo("b") > 0 compare the strings.
        if (left is MethodCallExpression { Method.Name: "Compare" or "CompareOrdinal" or "CompareTo" } compare && right is ConstantExpression { Value: 0 })
        {
            (left, right) = compare.Object is null ? (compare.Arguments[0], compare.Arguments[1]) : (compare.Object, compare.Arguments[0]);
            left = ExpressionPaths.StripConvert(left);
            right = ExpressionPaths.StripConvert(right);
        }
        if (!IsDocumentPath(left))
        {
            if (!IsDocumentPath(right))
                throw new NotSupportedException($"'{binary}' compares no field of the document.");
            (left, right) = (right, left);
            op = op switch { "<" => ">", "<=" => ">=", ">" => "<", ">=" => "<=", _ => op };
        }
        object? value = Evaluate(right);
        if (value is null)
            return op switch
            {
                "=" => $"{FieldOf(left)} = null",
                "!=" => $"not {FieldOf(left)} = null",
                _ => throw new NotSupportedException($"'{binary}' compares with null by order."),
            };
        return $"{FieldOf(left)} {op} {AddParameter(value)}";
    }

    private string Method(MethodCallExpression call)
    {
        switch (call.Method.Name)
        {
            case "StartsWith" or "EndsWith" when call.Object is not null && call.Method.DeclaringType == typeof(string):
                string function = call.Method.Name == "StartsWith" ? "startsWith" : "endsWith";
                return $"{function}({FieldOf(call.Object)}, {AddParameter(Evaluate(call.Arguments[0]))})";
            case "Equals" when call.Object is not null && call.Arguments.Count >= 1:
                return Comparison(Expression.Equal(call.Object, Expression.Convert(call.Arguments[0], call.Object.Type)));
            case "Contains":
                // list.Contains(x.Field) (instance or Enumerable): the field is one of the list's values.
                // x.Tags.Contains(value): the array holds the value, which RQL says as equality (an array matches when an element does).
                (Expression? collection, Expression item) = call.Object is not null ? (call.Object, call.Arguments[0]) : (call.Arguments[0], call.Arguments[1]);
                // C# 14 binds array.Contains(x) to MemoryExtensions.Contains over an implicit span of the array.
                if (collection is MethodCallExpression { Method.Name: "op_Implicit", Arguments.Count: 1 } span)
                    collection = span.Arguments[0];
                if (collection.Type == typeof(string))
                    throw new NotSupportedException("string.Contains is not supported by RQL; use StartsWith, EndsWith or Search.");
                if (IsDocumentPath(ExpressionPaths.StripConvert(item)) && !IsDocumentPath(ExpressionPaths.StripConvert(collection)))
                    return In(FieldOf(ExpressionPaths.StripConvert(item)), (IEnumerable?)Evaluate(collection));
                if (IsDocumentPath(ExpressionPaths.StripConvert(collection)))
                    return $"{Field(JsonPath(collection))} = {AddParameter(Evaluate(item))}";
                break;
            case "IsNullOrEmpty" when call.Method.DeclaringType == typeof(string):
                string field = FieldOf(ExpressionPaths.StripConvert(call.Arguments[0]));
                return $"({field} = null or {field} = '')";
        }
        throw new NotSupportedException($"Folio cannot translate the method call '{call}' to RQL.");
    }

    private string In(string field, IEnumerable? values)
    {
        var list = new StringBuilder();
        if (values is not null)
        {
            foreach (object? value in values)
            {
                if (list.Length > 0)
                    list.Append(", ");
                list.Append(AddParameter(value));
            }
        }
        return $"{field} in ({list})";
    }

    private static bool IsDocumentPath(Expression expression) => ExpressionPaths.TryMemberPath(expression, out _);
}
