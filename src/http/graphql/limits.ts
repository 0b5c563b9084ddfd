// Depth and complexity limits for GraphQL operations, as validation rules: an
// over-deep or over-expensive operation is rejected before anything resolves,
// with extensions.code query_too_complex (measure: depth or complexity).
//
// Cost model (deliberately simple, so a client can predict it): every field
// costs 1, a mutation field 10 (each one is a write); the cost of a field's
// selection is multiplied by its `first` argument when it has one (a literal,
// its default, or the maximum page size when it is a variable; the page's own
// list is not multiplied again), and by LIST_FACTOR for other list fields. An introspection field (__schema, __type) counts as one field of
// depth 1: its type-reference chains are deep but bounded by the schema's size.
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxComplexity: number;
  /** The largest `first` a list field accepts (a variable `first` is costed at this). */
  maxPageSize: number;
  /** Size limits checked before validation (and nesting/tokens before parsing): see size.ts. */
  maxNesting: number;
  maxTokens: number;
  maxFields: number;
  maxAliases: number;
}

export const DEFAULT_LIMITS: QueryLimits = {
  maxDepth: 8,
  maxComplexity: 5000,
  maxPageSize: 100,
  maxNesting: 64,
  maxTokens: 5000,
  maxFields: 500,
  maxAliases: 100,
};

const LIST_FACTOR = 5;
const MUTATION_FIELD_COST = 10;

interface Measure {
  depth: number;
  cost: number;
}

function isIntrospection(name: string): boolean {
  return name === '__schema' || name === '__type';
}

class Meter {
  private readonly fragments: Map<string, FragmentDefinitionNode>;
  private readonly schema: GraphQLSchema;
  private readonly limits: QueryLimits;
  constructor(
    schema: GraphQLSchema,
    fragments: readonly FragmentDefinitionNode[],
    limits: QueryLimits,
  ) {
    this.schema = schema;
    this.limits = limits;
    this.fragments = new Map(fragments.map((f) => [f.name.value, f]));
  }

  operation(op: OperationDefinitionNode): Measure {
    const root =
      op.operation === 'query' ? this.schema.getQueryType() : op.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getSubscriptionType();
    if (!root) return { depth: 0, cost: 0 };
    return this.selectionSet(op.selectionSet, root, op.operation === 'mutation' ? MUTATION_FIELD_COST : 1, new Set(), false);
  }

  /**
   * Depth counts fields below this selection set. `parent` is undefined below
   * a field the schema does not know (another rule reports it): depth is still
   * measured, so a deep document is refused however wrong it is. `visiting`
   * guards against fragment cycles (also reported by another rule).
   */
  private selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType | undefined, fieldCost: number, visiting: Set<string>, paged: boolean): Measure {
    let depth = 0;
    let cost = 0;
    for (const sel of set.selections) {
      let m: Measure;
      if (sel.kind === Kind.FIELD) {
        m = this.field(sel, parent, fieldCost, visiting, paged);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        m = this.selectionSet(sel.selectionSet, sel.typeCondition ? this.composite(sel.typeCondition.name.value) : parent, fieldCost, visiting, paged);
      } else {
        const name = sel.name.value;
        const frag = this.fragments.get(name);
        if (!frag || visiting.has(name)) continue;
        visiting.add(name);
        m = this.selectionSet(frag.selectionSet, this.composite(frag.typeCondition.name.value), fieldCost, visiting, paged);
        visiting.delete(name);
      }
      depth = Math.max(depth, m.depth);
      cost += m.cost;
    }
    return { depth, cost };
  }

  private composite(name: string): GraphQLCompositeType | undefined {
    const type = this.schema.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }

  /** `paged`: the enclosing field was already multiplied by its page size (a connection's nodes list is that page). */
  private field(node: FieldNode, parent: GraphQLCompositeType | undefined, fieldCost: number, visiting: Set<string>, paged: boolean): Measure {
    const name = node.name.value;
    if (name === '__typename') return { depth: 1, cost: 0 };
    // Introspection is bounded by the schema's size: one unit, whatever its shape.
    if (isIntrospection(name)) return { depth: 1, cost: 1 };
    const fieldDef = parent && 'getFields' in parent ? parent.getFields()[name] : undefined;
    if (!node.selectionSet) return { depth: 1, cost: fieldCost };
    const named = fieldDef ? getNamedType(fieldDef.type) : undefined;
    let factor = 1;
    const first = node.arguments?.find((a) => a.name.value === 'first');
    const firstDefault = fieldDef?.args.find((a) => a.name === 'first')?.defaultValue;
    if (first) {
      factor = first.value.kind === Kind.INT ? Math.max(1, Math.min(Number(first.value.value), this.limits.maxPageSize)) : this.limits.maxPageSize;
    } else if (typeof firstDefault === 'number') {
      factor = firstDefault;
    } else if (!paged && fieldDef && isListType(getNullableType(fieldDef.type))) {
      factor = LIST_FACTOR;
    }
    const isPage = first !== undefined || typeof firstDefault === 'number';
    const inner = this.selectionSet(node.selectionSet, named && isCompositeType(named) ? named : undefined, 1, visiting, isPage);
    return { depth: 1 + inner.depth, cost: fieldCost + factor * inner.cost };
  }
}

export function tooComplex(message: string, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'query_too_complex', ...extensions } });
}

/** One validation rule checking both limits for every operation of the document. */
export function limitsRule(limits: QueryLimits = DEFAULT_LIMITS): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(doc) {
      const fragments = doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
      const meter = new Meter(context.getSchema(), fragments, limits);
      for (const def of doc.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        const m = meter.operation(def);
        const name = def.name?.value ?? 'anonymous';
        if (m.depth > limits.maxDepth) {
          context.reportError(
            tooComplex(`operation ${name} is ${m.depth} levels deep; the limit is ${limits.maxDepth}`, { measure: 'depth', value: m.depth, limit: limits.maxDepth }),
          );
        }
        if (m.cost > limits.maxComplexity) {
          context.reportError(
            tooComplex(`operation ${name} costs ${m.cost}; the limit is ${limits.maxComplexity}`, { measure: 'complexity', value: m.cost, limit: limits.maxComplexity }),
          );
        }
      }
      return false; // nothing below the document to visit for this rule
    },
  });
}
