namespace Folio.Benchmarks.MapReduce;

/// <summary>What one index or view aggregates: its name, the group field, and the row fields holding the count, the integer sum and the other sum.</summary>
public sealed record GroupedIndex(string Name, string GroupField, string CountField, string QuantityField, string AmountField);

/// <summary>The definitions mapreduce-load builds over the orders (Folio's REST shapes and PouchDB's design documents).</summary>
public static class MapReduceIndexes
{
    /// <summary>
    /// (a) Per company: <c>Count</c> = orders (one map entry per order), <c>Freight</c> = the sum of their freight,
    /// <c>Quantity</c> = the sum of every line's quantity in those orders (the group path does not walk Lines, so an
    /// order's entry carries all its line quantities).
    /// </summary>
    public static readonly GroupedIndex ByCompany = new("Orders/ByCompany", "Company", "Count", "Quantity", "Freight");

    /// <summary>
    /// (b) Per product, fanning out over the lines: one entry per line, <c>Count</c> = lines of that product,
    /// <c>Quantity</c> = the sum of their quantities, <c>Price</c> = the sum of their unit prices (each read from the same line).
    /// </summary>
    public static readonly GroupedIndex ByProduct = new("Orders/ByProduct", "Product", "Count", "Quantity", "Price");

    /// <summary>(c) The static index over the same fields as (a): Company exact, Freight a double.</summary>
    public const string StaticCompanyName = "Orders/CompanyFreight";

    /// <summary>(c') The static index over the same fields as (b): every line's Product exact, Quantity a long.</summary>
    public const string StaticProductName = "Orders/ProductQuantity";

    /// <summary>(a) as Folio's index definition.</summary>
    public const string ByCompanyJson =
        "{\"Name\":\"Orders/ByCompany\",\"Collections\":[\"Orders\"],\"Reduce\":{\"GroupBy\":[\"Company\"],\"Aggregations\":{" +
        "\"Count\":{\"Op\":\"Count\"},\"Freight\":{\"Op\":\"Sum\",\"Path\":\"Freight\"},\"Quantity\":{\"Op\":\"Sum\",\"Path\":\"Lines[].Quantity\"}}}}";

    /// <summary>(b) as Folio's index definition.</summary>
    public const string ByProductJson =
        "{\"Name\":\"Orders/ByProduct\",\"Collections\":[\"Orders\"],\"Reduce\":{\"GroupBy\":[\"Lines[].Product\"],\"Aggregations\":{" +
        "\"Count\":{\"Op\":\"Count\"},\"Quantity\":{\"Op\":\"Sum\",\"Path\":\"Lines[].Quantity\"},\"Price\":{\"Op\":\"Sum\",\"Path\":\"Lines[].PricePerUnit\"}}}}";

    /// <summary>(c) as Folio's index definition.</summary>
    public const string StaticCompanyJson =
        "{\"Name\":\"Orders/CompanyFreight\",\"Collections\":[\"Orders\"],\"Fields\":{" +
        "\"Company\":{\"Path\":\"Company\"},\"Freight\":{\"Path\":\"Freight\",\"Type\":\"Double\"}}}";

    /// <summary>(c') as Folio's index definition.</summary>
    public const string StaticProductJson =
        "{\"Name\":\"Orders/ProductQuantity\",\"Collections\":[\"Orders\"],\"Fields\":{" +
        "\"Product\":{\"Path\":\"Lines[].Product\"},\"Quantity\":{\"Path\":\"Lines[].Quantity\",\"Type\":\"Long\"}}}";

    /// <summary>(e) PouchDB's view like (a): per company [1, freight, the order's quantities] summed by the built-in <c>_sum</c> (element-wise over arrays).</summary>
    public const string PouchByCompanyDesign =
        "{\"_id\":\"_design/company\",\"views\":{\"totals\":{\"map\":\"function (doc) { if (doc.Lines) { var q = 0; " +
        "for (var i = 0; i < doc.Lines.length; i++) { q += doc.Lines[i].Quantity; } emit(doc.Company, [1, doc.Freight, q]); } }\",\"reduce\":\"_sum\"}}}";

    /// <summary>(e) PouchDB's view like (b): per line, its product → [1, quantity, unit price], summed by <c>_sum</c>.</summary>
    public const string PouchByProductDesign =
        "{\"_id\":\"_design/product\",\"views\":{\"totals\":{\"map\":\"function (doc) { if (doc.Lines) { " +
        "for (var i = 0; i < doc.Lines.length; i++) { var l = doc.Lines[i]; emit(l.Product, [1, l.Quantity, l.PricePerUnit]); } } }\",\"reduce\":\"_sum\"}}}";
}
