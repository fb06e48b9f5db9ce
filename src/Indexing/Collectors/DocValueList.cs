using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>The values of one entry in a <see cref="DocValuesBlock"/>, in the order they were indexed (none when the entry lacks the field).</summary>
public readonly ref struct DocValueList
{
    private readonly ReadOnlySpan<byte> _encoded;

    internal DocValueList(ReadOnlySpan<byte> encoded) => _encoded = encoded;

    /// <summary>Whether the entry has no value (it lacks the field, or the field keeps none).</summary>
    public bool IsEmpty => _encoded.IsEmpty;

    /// <summary>Walks the values without allocating.</summary>
    public Enumerator GetEnumerator() => new(_encoded);

    /// <summary>Decodes one value after another.</summary>
    public ref struct Enumerator
    {
        private readonly ReadOnlySpan<byte> _encoded;
        private int _position;

        internal Enumerator(ReadOnlySpan<byte> encoded)
        {
            _encoded = encoded;
            Current = default;
        }

        /// <summary>The value moved to.</summary>
        public DocValue Current { get; private set; }

        /// <summary>Moves to the next value; false after the last.</summary>
        public bool MoveNext()
        {
            if (_position >= _encoded.Length)
                return false;
            var start = _position;
            var kind = (DocValueKind)_encoded[_position++];
            var bytes = kind == DocValueKind.Null ? default : ByteCoding.ReadBytes(_encoded, ref _position);
            Current = new DocValue(kind, bytes, _encoded[start.._position]);
            return true;
        }
    }
}
