using System.Linq.Expressions;
using System.Reflection;
using System.Text;

namespace Folio.Client.Linq;

/// <summary>
/// Turns member accesses in expression trees into document paths (<c>ShipTo.Country</c>, <c>Lines[].Product</c>,
/// <c>Tags.Count</c> and <c>Notes.Length</c>, which the server reads as sizes).
/// </summary>
internal static class ExpressionPaths
{
    /// <summary>The path of a member chain from the lambda's parameter; throws for anything else.</summary>
    public static string MemberPath(Expression expression) =>
        TryMemberPath(expression, out string? path) ? path : throw new NotSupportedException($"'{expression}' is not a path of the document (a property, or a property of a property).");

    public static bool TryMemberPath(Expression expression, out string path)
    {
        var parts = new List<string>();
        Expression? current = StripConvert(expression);
        while (true)
        {
            switch (current)
            {
                case MemberExpression { Member: PropertyInfo or FieldInfo } member when IsNullableValue(member):
                    current = StripConvert(member.Expression!);
                    continue;
                case MemberExpression { Member: PropertyInfo or FieldInfo } member when member.Expression is not null:
                    parts.Add(member.Member.Name);
                    current = StripConvert(member.Expression);
                    continue;
                // Lines.Select(l => l.Product): the array's elements' Product.
                case MethodCallExpression { Method.Name: "Select", Arguments.Count: 2 } call
                    when call.Method.DeclaringType == typeof(Enumerable) && StripQuote(call.Arguments[1]) is LambdaExpression selector
                         && TryMemberPath(selector.Body, out string inner):
                    parts.Add("[]." + inner);
                    current = StripConvert(call.Arguments[0]);
                    continue;
                // tags.Length of an array: the server reads a last Length as the array's size, as it reads List's Count.
                case UnaryExpression { NodeType: ExpressionType.ArrayLength } length:
                    parts.Add("Length");
                    current = StripConvert(length.Operand);
                    continue;
                case ParameterExpression:
                    path = Join(parts);
                    return parts.Count > 0;
                default:
                    path = "";
                    return false;
            }
        }
    }

    private static string Join(List<string> parts)
    {
        var text = new StringBuilder();
        for (int i = parts.Count - 1; i >= 0; i--)
        {
            string part = parts[i];
            // "[].Product" follows the array's own name directly.
            if (text.Length > 0 && !part.StartsWith('['))
                text.Append('.');
            text.Append(part);
        }
        return text.ToString();
    }

    private static bool IsNullableValue(MemberExpression member) =>
        member.Member.Name == "Value" && member.Expression is not null && Nullable.GetUnderlyingType(member.Expression.Type) is not null;

    public static Expression StripConvert(Expression expression)
    {
        while (expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked or ExpressionType.TypeAs } unary)
            expression = unary.Operand;
        return expression;
    }

    public static Expression StripQuote(Expression expression)
    {
        while (expression is UnaryExpression { NodeType: ExpressionType.Quote } unary)
            expression = unary.Operand;
        return expression;
    }
}
