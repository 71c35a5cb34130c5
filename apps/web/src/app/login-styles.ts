/**
 * The stylesheet of the shell and the login page only, and of the other pre-rendered pages' first
 * render (docs/decisions/021-pre-rendered-public-pages.md; the invitation's registration form adds
 * its language select's chevron and its password hints' list): Mantine's base and the styles of the
 * components those render, instead of Mantine's whole stylesheet (about 30 KB compressed),
 * which the other views load with their code (`./all-styles.ts`, docs/performance.md).
 * Order as in Mantine's own stylesheet: base, then components (a component after those it uses).
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
// the theme's variables, which Mantine's provider writes where it is (the login route renders without it)
import '@/components/theme-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/List.css';
