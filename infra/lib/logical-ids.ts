// Constructs that group resources without renaming them. CDK makes each resource's logical ID from
// its construct path, and CloudFormation replaces a resource whose logical ID changes: a table or a
// bucket with its data, a key, a log group with its logs; a resource with a fixed name (the client-id
// parameter) cannot even be created beside itself, so the deploy fails. Putting resources into a
// construct of their own adds that construct to their paths; a grouping is left out of the logical
// IDs, so resources keep the IDs they had directly in the grouping's parent.
import { createHash } from 'node:crypto';
import { CfnElement, Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';

/**
 * A stack in which groupings add nothing to logical IDs. CDK's documented way to change how a stack
 * names its resources is to override `allocateLogicalId`; resources outside groupings keep CDK's own
 * names.
 */
export class GroupingAwareStack extends Stack {
  protected override allocateLogicalId(element: CfnElement): string {
    return isGrouped(element) ? logicalIdOutsideGroupings(element) : super.allocateLogicalId(element);
  }
}

/**
 * A construct that only groups resources. It must sit in a GroupingAwareStack; it checks that at
 * synth, so a stack that would rename what it holds fails before anything is replaced.
 */
export class Grouping extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.node.addValidation({
      validate: () => {
        const stack = Stack.of(this);
        return this.node
          .findAll()
          .filter((child): child is CfnElement => CfnElement.isCfnElement(child))
          // What the stack names the element by (an override such as a function version's stays its own).
          .filter((element) => stack.getLogicalId(element) !== logicalIdOutsideGroupings(element))
          .map((element) => `${element.node.path} would be named ${stack.getLogicalId(element)}, not ${logicalIdOutsideGroupings(element)}: a grouping must sit in a GroupingAwareStack`);
      },
    });
  }
}

/** Whether a grouping stands between the element and its stack. */
export function isGrouped(element: CfnElement): boolean {
  return pathBelowStack(element).some((scope) => scope instanceof Grouping);
}

/** The logical ID CDK gives the element, computed from its path with every grouping left out. */
export function logicalIdOutsideGroupings(element: CfnElement): string {
  return uniqueId(
    pathBelowStack(element)
      .filter((scope) => !(scope instanceof Grouping))
      .map((scope) => scope.node.id),
  );
}

function pathBelowStack(element: CfnElement): Construct[] {
  const scopes = element.node.scopes as Construct[];
  return scopes.slice(scopes.indexOf(element.stack) + 1);
}

// CDK's makeUniqueId (aws-cdk-lib core/lib/private/uniqueid.ts), which it does not export. It cannot
// change without renaming every resource CDK has ever deployed; a test checks that it names every
// ungrouped resource of the stack exactly as CDK does.
const HIDDEN_ID = 'Default';
const HIDDEN_FROM_HUMAN_ID = 'Resource';
const MAX_HUMAN_LENGTH = 240;
const MAX_ID_LENGTH = 255;

function uniqueId(path: readonly string[]): string {
  const components = path.filter((component) => component !== HIDDEN_ID);
  if (components.length === 0) throw new Error('A logical ID needs at least one path component');
  const alphanumeric = (text: string) => text.replace(/[^A-Za-z0-9]/g, '');
  if (components.length === 1 && alphanumeric(components[0]!).length <= MAX_ID_LENGTH) return alphanumeric(components[0]!);
  const hash = createHash('md5').update(components.join('/')).digest('hex').slice(0, 8).toUpperCase();
  // A component that ends the one before it (`Bucket` after `SiteBucket`) is said once.
  const human = components
    .reduce<string[]>((kept, component) => (kept.length > 0 && kept.at(-1)!.endsWith(component) ? kept : [...kept, component]), [])
    .filter((component) => component !== HIDDEN_FROM_HUMAN_ID)
    .map(alphanumeric)
    .join('')
    .slice(0, MAX_HUMAN_LENGTH);
  return human + hash;
}
